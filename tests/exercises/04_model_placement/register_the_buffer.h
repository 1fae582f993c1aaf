/// @file register_the_buffer.h
/// @brief Exercise register_the_buffer: the API the learner's file implements and the tests call.
#pragma once

#include <torch/nn/module.h>

#include <cstdint>

namespace ex {

/// y = linear(x @ scale) = (x @ scale) @ weight^T + bias. `scale` is a fixed [in, in] matrix,
/// say a whitening matrix computed from data: never trained, yet part of the model, so it must
/// follow every to(), be saved and loaded, and be listed by named_buffers().
struct ScaledLinearImpl : torch::nn::Module {
    /// Copies `scale` ([in, in]); the weight is random ([out, in]) and the bias zero ([out]).
    /// @throws c10::Error if `scale` is not a square matrix.
    ScaledLinearImpl(const torch::Tensor& scale, std::int64_t out_features);

    /// x: [batch, in] on the model's device, in its dtype. Returns [batch, out].
    torch::Tensor forward(const torch::Tensor& x);

    torch::Tensor weight;  ///< [out, in], a parameter named "weight".
    torch::Tensor bias;    ///< [out], a parameter named "bias".
    torch::Tensor scale;   ///< [in, in], must be a buffer named "scale".
};

/// The module holder: `ScaledLinear model(torch::eye(3), 2); model->to(torch::kFloat64);`.
TORCH_MODULE(ScaledLinear);

}  // namespace ex
