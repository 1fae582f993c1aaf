/// @file optimizer_after_move.cpp
/// @brief Solution of optimizer_after_move (lesson 04).
#include "optimizer_after_move.h"

#include <stdexcept>
#include <string>

namespace ex {

Trainable prepare_for_training(std::shared_ptr<torch::nn::Module> model, c10::Device device,
                               c10::ScalarType dtype, double lr) {
    // Check everything first, so that a bad call leaves the model exactly as it was.
    if (!c10::isFloatingType(dtype)) {
        throw std::invalid_argument(
            std::string("prepare_for_training: expected a floating-point dtype, got ") +
            c10::toString(dtype));
    }
    if (!(lr > 0.0)) {  // also rejects NaN
        throw std::invalid_argument("prepare_for_training: expected lr > 0, got " +
                                    std::to_string(lr));
    }
    // One call moves and converts every registered tensor, in place.
    model->to(device, dtype);
    // Built now, the optimizer holds the tensors where they will stay, as will all its state.
    auto optimizer =
        std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(lr));
    return {std::move(model), std::move(optimizer)};
}

}  // namespace ex
