/// @file autocast_guard.h
/// @brief Exercise autocast_guard: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>

#include <functional>
#include <vector>

namespace ex {

/// C++'s `with torch.autocast(device_type, dtype=dtype):`. While it lives, eligible ops on
/// `device_type` (matmul, linear, conv, ...) run in `dtype`; ops that need range (sums, losses,
/// softmax) stay in float32. It restores the autocast state it found (enabled flag and dtype of
/// that device type), so guards nest, and when the outermost guard ends it empties autocast's
/// cache of casted weights.
class AutocastGuard {
  public:
    /// Enables autocast for `device_type` in `dtype` (CPU: bfloat16; CUDA: float16 or bfloat16).
    AutocastGuard(c10::DeviceType device_type, c10::ScalarType dtype);
    /// Restores the state found on construction.
    ~AutocastGuard();
    AutocastGuard(const AutocastGuard&) = delete;
    AutocastGuard& operator=(const AutocastGuard&) = delete;
    AutocastGuard(AutocastGuard&&) = delete;
    AutocastGuard& operator=(AutocastGuard&&) = delete;

  private:
    c10::DeviceType device_type_;
    bool previous_enabled_ = false;
    c10::ScalarType previous_dtype_ = c10::ScalarType::Float;
};

/// One mixed-precision SGD step: clears the gradients of `params`, computes `loss_fn()` (the
/// forward pass and the loss) under an AutocastGuard(device_type, dtype), runs backward() after
/// the guard has ended (as PyTorch recommends: the backward ops use the dtypes the forward chose),
/// then updates every parameter with p -= lr * p.grad() without recording it for autograd.
/// `params` stay in their own dtype (float32 master weights); only the computation is lowered.
/// @returns the loss, as a double.
/// @throws std::invalid_argument if params is empty, lr <= 0, or loss_fn returns a tensor with
///         more than one element.
double autocast_sgd_step(const std::vector<at::Tensor>& params,
                         const std::function<at::Tensor()>& loss_fn, double lr,
                         c10::DeviceType device_type, c10::ScalarType dtype);

}  // namespace ex
