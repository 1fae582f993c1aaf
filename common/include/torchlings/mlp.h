/// @file mlp.h
/// @brief torchlings::Mlp, the small classifier that lesson 07 replicates and trains: in its demo,
/// in its exercises' tests and in its benchmark.
///
/// Two linear layers with a ReLU between them, written with raw registered parameters so that the
/// only LibTorch header it needs is <torch/nn/cloneable.h>. It derives from
/// torch::nn::Cloneable<MlpImpl>, which gives it clone(device): a deep copy onto a device.
/// Cloneable requires reset() to (re)register every parameter, because clone() copies the object,
/// clears its parameters, calls reset() and only then copies the values in.
#pragma once

#include <ATen/ops/linear.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/zeros.h>
#include <torch/nn/cloneable.h>
#include <torch/nn/pimpl.h>

#include <cmath>
#include <cstdint>

namespace torchlings {

/// logits = w2 · relu(w1 · x + b1) + b2: in_features -> hidden -> classes.
struct MlpImpl : torch::nn::Cloneable<MlpImpl> {
    /// Random weights (scaled by 1/sqrt(fan-in)) and zero biases, from the global generator.
    MlpImpl(std::int64_t in_features, std::int64_t hidden, std::int64_t classes)
        : in_features_(in_features), hidden_(hidden), classes_(classes) {
        reset();
    }

    /// Registers fresh parameters. clone() calls it on every copy before overwriting the values,
    /// so each replica also pays for (and draws random numbers for) one initialisation.
    void reset() override {
        w1 = register_parameter("w1", at::randn({hidden_, in_features_}) /
                                          std::sqrt(static_cast<double>(in_features_)));
        b1 = register_parameter("b1", at::zeros({hidden_}));
        w2 = register_parameter(
            "w2", at::randn({classes_, hidden_}) / std::sqrt(static_cast<double>(hidden_)));
        b2 = register_parameter("b2", at::zeros({classes_}));
    }

    /// [batch, in_features] -> [batch, classes] logits.
    torch::Tensor forward(const torch::Tensor& x) {
        return at::linear(at::relu(at::linear(x, w1, b1)), w2, b2);
    }

    torch::Tensor w1;  ///< [hidden, in_features].
    torch::Tensor b1;  ///< [hidden].
    torch::Tensor w2;  ///< [classes, hidden].
    torch::Tensor b2;  ///< [classes].

  private:
    std::int64_t in_features_;
    std::int64_t hidden_;
    std::int64_t classes_;
};

/// The module holder: `Mlp net(8, 32, 4); net->to(device); net(x);` (a shared pointer inside).
TORCH_MODULE(Mlp);

}  // namespace torchlings
