/// @file optimizer_after_move.cpp
/// @brief Exercise optimizer_after_move (lesson 04): move a training model with its optimizer's
/// state.
///
/// An optimizer keeps the parameter tensors it was given and, once it steps, state of its own
/// made where those parameters were then. Module::to() moves the parameters in place, so the
/// optimizer still holds them, but it never sees that state: move it yourself.
/// Check it with: ./torchlings check optimizer_after_move
/// Stuck? ./torchlings hint optimizer_after_move
#include "optimizer_after_move.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

void move_training(torch::nn::Module& model, torch::optim::SGD& optimizer, c10::Device device,
                   c10::ScalarType dtype) {
    // TODO: reject a non-floating-point dtype with std::invalid_argument, before anything moves.
    // TODO: move the model to the device and the dtype (Module::to returns nothing).
    // TODO: for every entry of optimizer.state(), replace its momentum buffer (when defined) by
    //       a copy on the device, in the dtype.
    (void)model;
    (void)optimizer;
    (void)device;
    (void)dtype;
    TL_TODO("move_training: move the model, then its optimizer's momentum buffers");
}

}  // namespace ex
