/// @file optimizer_after_move.h
/// @brief Exercise optimizer_after_move: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <torch/nn/module.h>
#include <torch/optim/sgd.h>

namespace ex {

/// Moves a model that is already training to `device` and `dtype`, together with its optimizer's
/// state, so that training goes on there as if it had always been there.
///
/// `optimizer` is SGD (with momentum) over `model`'s parameters and may have stepped already: it
/// then keeps a momentum buffer per parameter, made where the parameters were at that step.
/// Module::to() converts every registered parameter and buffer in place (the optimizer still
/// holds the same tensors) but never touches the optimizer's state: every momentum buffer must
/// end on `device` in `dtype`, with its values kept, and stay the optimizer's state for the same
/// parameter.
/// @throws std::invalid_argument, before touching the model or the optimizer, if `dtype` is not
///         a floating-point type.
void move_training(torch::nn::Module& model, torch::optim::SGD& optimizer, c10::Device device,
                   c10::ScalarType dtype);

}  // namespace ex
