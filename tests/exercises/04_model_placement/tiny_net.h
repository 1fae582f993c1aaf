/// @file tiny_net.h
/// @brief TinyNet, the small model that exercises load_onto_device and inference_mode work on.
///
/// One linear layer with the two things that make placement and inference interesting: a buffer
/// (a running mean of the inputs, updated in training mode like BatchNorm's) and dropout (random
/// in training mode, off in evaluation mode). It includes only <torch/nn/module.h>, the narrowest
/// LibTorch header that defines torch::nn::Module.
#pragma once

#include <torch/nn/module.h>

#include <cmath>
#include <cstdint>

namespace ex {

/// y = dropout(linear(x - input_mean)), with input_mean tracked in training mode.
struct TinyNetImpl : torch::nn::Module {
    /// Fraction of outputs that dropout zeroes in training mode.
    static constexpr double kDropout = 0.5;
    /// Weight of a new batch in the running mean, as BatchNorm's momentum.
    static constexpr double kMomentum = 0.1;

    /// Random weight (scaled by 1/sqrt(in_features)), zero bias, zero running mean.
    TinyNetImpl(std::int64_t in_features, std::int64_t out_features)
        : weight(register_parameter("weight", at::randn({out_features, in_features}) /
                                                  std::sqrt(static_cast<double>(in_features)))),
          bias(register_parameter("bias", at::zeros({out_features}))),
          input_mean(register_buffer("input_mean", at::zeros({in_features}))) {}

    /// In training mode, first folds the batch's mean into input_mean (without autograd).
    torch::Tensor forward(const torch::Tensor& x) {
        if (is_training()) {
            const at::NoGradGuard no_grad;
            input_mean.mul_(1.0 - kMomentum).add_(x.mean({0}), kMomentum);
        }
        return at::dropout(at::linear(x - input_mean, weight, bias), kDropout, is_training());
    }

    torch::Tensor weight;      ///< [out_features, in_features], a parameter.
    torch::Tensor bias;        ///< [out_features], a parameter.
    torch::Tensor input_mean;  ///< [in_features], a buffer.
};

/// The module holder: `TinyNet net(3, 2); net->to(device); net(x);` (a shared pointer inside).
TORCH_MODULE(TinyNet);

}  // namespace ex
