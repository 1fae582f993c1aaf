/// @file optimizer_after_move.cpp
/// @brief Exercise optimizer_after_move (lesson 04): move the model, then build its optimizer.
///
/// An optimizer keeps the parameter tensors it was given and, once it steps, state made where
/// those parameters were then. The order that is always right: move the model to its device and
/// dtype first, then build the optimizer over the parameters as they are now.
/// Check it with: ./torchlings check optimizer_after_move
/// Stuck? ./torchlings hint optimizer_after_move
#include "optimizer_after_move.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

Trainable prepare_for_training(std::shared_ptr<torch::nn::Module> model, c10::Device device,
                               c10::ScalarType dtype, double lr) {
    // TODO: reject a non-floating-point dtype and a learning rate <= 0 with
    //       std::invalid_argument, before the model is touched.
    // TODO: move the model to the device and the dtype (Module::to returns nothing).
    // TODO: build torch::optim::SGD over the model's parameters, with SGDOptions(lr), and return
    //       the model and the optimizer together.
    (void)model;
    (void)device;
    (void)dtype;
    (void)lr;
    TL_TODO("prepare_for_training: move the model, then build SGD over its parameters");
}

}  // namespace ex
