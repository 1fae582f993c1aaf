// Mistake: Unscale by multiplying by the scale
// The op multiplies the gradients by the value it is given: it must be the inverse scale.
// Passing the scale itself leaves gradients scale^2 too large.
/// @file loss_scaler.cpp
/// @brief Solution of loss_scaler (lesson 08).
#include "loss_scaler.h"

#include <ATen/core/grad_mode.h>
#include <ATen/ops/_amp_foreach_non_finite_check_and_unscale.h>
#include <ATen/ops/_amp_update_scale.h>
#include <ATen/ops/full.h>
#include <ATen/ops/zeros.h>

#include <stdexcept>
#include <string>

namespace ex {

LossScaler::LossScaler(const c10::Device& device, ScalerOptions options) : options_(options) {
    if (!(options_.init_scale > 0) || !(options_.growth_factor > 1) ||
        !(options_.backoff_factor > 0 && options_.backoff_factor < 1) ||
        options_.growth_interval < 1) {
        throw std::invalid_argument(
            "LossScaler: expected init_scale > 0, growth_factor > 1, 0 < backoff_factor < 1 and "
            "growth_interval >= 1, got " +
            std::to_string(options_.init_scale) + ", " + std::to_string(options_.growth_factor) +
            ", " + std::to_string(options_.backoff_factor) + " and " +
            std::to_string(options_.growth_interval));
    }
    // The dtypes the two ATen ops require: float32 scale and flag, int32 counter.
    const auto f32 = at::TensorOptions().device(device).dtype(at::kFloat);
    scale_ = at::full({1}, options_.init_scale, f32);
    growth_tracker_ = at::zeros({1}, f32.dtype(at::kInt));
    found_inf_ = at::zeros({1}, f32);
}

at::Tensor LossScaler::scale(const at::Tensor& loss) const { return loss.mul(scale_); }

bool LossScaler::unscale_(const std::vector<at::Tensor>& grads) {
    found_inf_.zero_();  // the op only ever sets the flag: a stale 1 would skip every step
    // The reciprocal in double, as GradScaler does, then float32 as the op requires.
    const auto inv_scale = scale_.to(at::kDouble).reciprocal().to(at::kFloat);
    (void)inv_scale;
    at::_amp_foreach_non_finite_check_and_unscale_(grads, found_inf_, scale_);
    // item() waits for the device: one sync per step, the price of deciding on the host.
    return found_inf_.item<float>() == 0.0F;
}

void LossScaler::update() {
    at::_amp_update_scale_(scale_, growth_tracker_, found_inf_, options_.growth_factor,
                           options_.backoff_factor, options_.growth_interval);
}

double LossScaler::current_scale() const { return scale_.item<double>(); }

std::int64_t LossScaler::good_steps() const { return growth_tracker_.item<std::int64_t>(); }

bool scaled_sgd_step(const std::vector<at::Tensor>& params,
                     const std::function<at::Tensor()>& loss_fn, double lr, LossScaler& scaler) {
    if (params.empty() || !(lr > 0)) {
        throw std::invalid_argument(
            "scaled_sgd_step: expected at least one parameter and lr > 0, got " +
            std::to_string(params.size()) + " parameters and lr " + std::to_string(lr));
    }
    for (const auto& p : params) {
        if (p.grad().defined()) {
            p.mutable_grad().zero_();
        }
    }
    scaler.scale(loss_fn()).backward();
    std::vector<at::Tensor> grads;
    for (const auto& p : params) {
        if (p.grad().defined()) {
            grads.push_back(p.grad());
        }
    }
    const bool finite = scaler.unscale_(grads);
    if (finite) {
        const at::NoGradGuard no_grad;
        for (const auto& p : params) {
            if (p.grad().defined()) {
                p.sub_(p.grad(), lr);
            }
        }
    }
    scaler.update();  // also after a skipped step: that is when the scale must back off
    return finite;
}

}  // namespace ex
