// Mistake: Forget to clear the gradients before the step
// backward() adds into .grad(): without zeroing, the second step uses the sum of both
// steps' gradients. The two-step comparison with the steps done by hand sees it.
/// @file autocast_guard.cpp
/// @brief Solution of autocast_guard (lesson 08).
#include "autocast_guard.h"

#include <ATen/autocast_mode.h>
#include <ATen/core/grad_mode.h>

#include <stdexcept>
#include <string>

namespace ex {

AutocastGuard::AutocastGuard(c10::DeviceType device_type, c10::ScalarType dtype)
    : device_type_(device_type),
      previous_enabled_(at::autocast::is_autocast_enabled(device_type)),
      previous_dtype_(at::autocast::get_autocast_dtype(device_type)) {
    at::autocast::set_autocast_enabled(device_type_, true);
    at::autocast::set_autocast_dtype(device_type_, dtype);
    at::autocast::increment_nesting();  // counts live guards, so that only the last clears
}

AutocastGuard::~AutocastGuard() {
    // The outermost guard empties the cache of casted weights: an optimizer step changes the
    // weights in place, and a cached low-precision copy would then be stale.
    if (at::autocast::decrement_nesting() == 0) {
        at::autocast::clear_cache();
    }
    // What was there before, not "off": an enclosing guard must keep working.
    at::autocast::set_autocast_enabled(device_type_, previous_enabled_);
    at::autocast::set_autocast_dtype(device_type_, previous_dtype_);
}

double autocast_sgd_step(const std::vector<at::Tensor>& params,
                         const std::function<at::Tensor()>& loss_fn, double lr,
                         c10::DeviceType device_type, c10::ScalarType dtype) {
    if (params.empty() || !(lr > 0)) {
        throw std::invalid_argument(
            "autocast_sgd_step: expected at least one parameter and lr > 0, got " +
            std::to_string(params.size()) + " parameters and lr " + std::to_string(lr));
    }
    at::Tensor loss;
    {
        const AutocastGuard autocast(device_type, dtype);
        loss = loss_fn();  // forward only: matmuls in `dtype`, the loss itself in float32
    }
    if (loss.numel() != 1) {
        throw std::invalid_argument(
            "autocast_sgd_step: expected loss_fn to return one value, got " +
            std::to_string(loss.numel()) + " elements");
    }
    loss.backward();  // outside the guard
    {
        const at::NoGradGuard no_grad;  // the update is not part of the graph
        for (const auto& p : params) {
            p.sub_(p.grad(), lr);
        }
    }
    return loss.item<double>();
}

}  // namespace ex
