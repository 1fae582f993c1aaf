/// @file model_memory_estimate.h
/// @brief Exercise model_memory_estimate: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace ex {

/// The optimizers whose memory the estimate knows.
enum class Optimizer {
    kSgd,          ///< Plain SGD: keeps no state.
    kSgdMomentum,  ///< SGD with momentum: one momentum buffer per parameter.
    kAdam,         ///< Adam: exp_avg and exp_avg_sq per parameter.
};

/// The bytes that training a model keeps, before any activation.
struct TrainingMemory {
    std::uint64_t parameters = 0;       ///< Every parameter, trainable or frozen.
    std::uint64_t gradients = 0;        ///< One gradient per trainable parameter.
    std::uint64_t optimizer_state = 0;  ///< The optimizer's tensors, per trainable parameter.
    /// All three together.
    std::uint64_t total() const { return parameters + gradients + optimizer_state; }
};

/// How many tensors of a parameter's shape and dtype `optimizer` keeps per trainable parameter:
/// 0 for plain SGD, 1 for SGD with momentum, 2 for Adam (without amsgrad).
int state_tensors_per_parameter(Optimizer optimizer);

/// Estimates the training memory of a model from its parameters (as `module->parameters()`
/// returns them), without running anything: each parameter counts numel x element size; a
/// parameter that requires grad also gets a gradient and the optimizer's state, all of its own
/// dtype; a frozen one (requires_grad false) gets neither.
TrainingMemory estimate_training_memory(const std::vector<at::Tensor>& parameters,
                                        Optimizer optimizer);

}  // namespace ex
