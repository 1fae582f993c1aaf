/// @file optimizer_after_move.h
/// @brief Exercise optimizer_after_move: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <torch/nn/module.h>
#include <torch/optim/sgd.h>

#include <memory>

namespace ex {

/// A model ready to train, and the optimizer that updates it.
struct Trainable {
    std::shared_ptr<torch::nn::Module> model;      ///< The model, on its final device and dtype.
    std::unique_ptr<torch::optim::SGD> optimizer;  ///< Plain SGD over the model's parameters.
};

/// Moves `model` (every parameter and buffer) to `device` and `dtype`, and only then builds plain
/// SGD with learning rate `lr` (no momentum) over its parameters.
/// @throws std::invalid_argument, before touching the model, if `dtype` is not a floating-point
///         type or `lr` is not positive.
Trainable prepare_for_training(std::shared_ptr<torch::nn::Module> model, c10::Device device,
                               c10::ScalarType dtype, double lr);

}  // namespace ex
