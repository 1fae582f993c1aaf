/// @file loss_scaler.h
/// @brief Exercise loss_scaler: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace ex {

/// The settings of torch.cuda.amp.GradScaler, with its defaults.
struct ScalerOptions {
    double init_scale = 65536.0;          ///< 2^16: the first scale tried.
    double growth_factor = 2.0;           ///< Scale *= this after growth_interval good steps.
    double backoff_factor = 0.5;          ///< Scale *= this after a step with inf or NaN.
    std::int64_t growth_interval = 2000;  ///< Good steps in a row before the scale grows.
};

/// Dynamic loss scaling for float16 training (C++ has no GradScaler class). float16 gradients
/// below about 3e-8 (half of float16's smallest value, 2^-24) round to zero, and those below
/// 6.1e-5 (2^-14) keep fewer bits; multiplying the loss by a large scale lifts them into range.
/// The gradients are divided by the scale again before the optimizer sees them; a step whose
/// gradients overflowed (inf or NaN) is skipped and the scale backs off. Its state lives in
/// tensors on `device` (as GradScaler's does), so that checking for inf needs no copy per tensor.
class LossScaler {
  public:
    /// @throws std::invalid_argument unless init_scale > 0, growth_factor > 1,
    ///         0 < backoff_factor < 1 and growth_interval >= 1.
    explicit LossScaler(const c10::Device& device, ScalerOptions options = {});

    /// loss * the current scale.
    [[nodiscard]] at::Tensor scale(const at::Tensor& loss) const;

    /// Divides every gradient by the current scale, in place, and records whether any of them
    /// holds an inf or a NaN. Returns true when all were finite (the step may be taken).
    bool unscale_(const std::vector<at::Tensor>& grads);

    /// After each step (taken or skipped): backs off if the last unscale_() found an inf or NaN
    /// (and restarts the count of good steps), else counts one more good step and grows the
    /// scale after growth_interval of them.
    void update();

    /// The current scale.
    [[nodiscard]] double current_scale() const;
    /// Good steps counted since the last growth or backoff.
    [[nodiscard]] std::int64_t good_steps() const;

  private:
    ScalerOptions options_;
    at::Tensor scale_;           ///< float32, one element.
    at::Tensor growth_tracker_;  ///< int32, one element.
    at::Tensor found_inf_;       ///< float32, one element: 1 if the last unscale_() found one.
};

/// One SGD step with loss scaling: clears the gradients of `params`, computes `loss_fn()`, calls
/// backward() on the scaled loss, unscales the gradients, updates p -= lr * p.grad() (without
/// recording it for autograd) only if they are all finite, and updates the scaler either way.
/// @returns true if the step was taken, false if it was skipped.
/// @throws std::invalid_argument if params is empty or lr <= 0.
bool scaled_sgd_step(const std::vector<at::Tensor>& params,
                     const std::function<at::Tensor()>& loss_fn, double lr, LossScaler& scaler);

}  // namespace ex
