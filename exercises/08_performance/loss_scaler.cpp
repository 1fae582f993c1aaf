/// @file loss_scaler.cpp
/// @brief Exercise loss_scaler (lesson 08): dynamic loss scaling on ATen's own ops.
///
/// float16 gradients below about 3e-8 become zero (and lose precision below 6e-5). Python's
/// GradScaler multiplies the loss by a large scale, divides the gradients again, skips steps that
/// overflowed and adjusts the scale.
/// C++ has the two ATen ops it is built on, and no class: write it.
/// Check it with: ./torchlings check loss_scaler      Stuck? ./torchlings hint loss_scaler
#include "loss_scaler.h"

#include <torchlings/exercise.h>

#include <ATen/core/grad_mode.h>
#include <ATen/ops/_amp_foreach_non_finite_check_and_unscale.h>
#include <ATen/ops/_amp_update_scale.h>
#include <ATen/ops/full.h>
#include <ATen/ops/zeros.h>

#include <stdexcept>
#include <string>

namespace ex {

LossScaler::LossScaler(const c10::Device& device, ScalerOptions options) : options_(options) {
    // TODO: validate the options (see loss_scaler.h) with std::invalid_argument.
    // TODO: on `device`: scale_ = [init_scale] (float32), growth_tracker_ = [0] (int32),
    //       found_inf_ = [0] (float32).
    (void)device;
    TL_TODO("LossScaler: validate the options and create the state tensors");
}

at::Tensor LossScaler::scale(const at::Tensor& loss) const {
    // TODO: the loss times the scale.
    (void)loss;
    TL_TODO("LossScaler::scale");
}

bool LossScaler::unscale_(const std::vector<at::Tensor>& grads) {
    // TODO: reset found_inf_, then let at::_amp_foreach_non_finite_check_and_unscale_ divide the
    //       gradients by the scale (it takes the inverse scale, float32) and flag infs and NaNs.
    // TODO: return true when nothing was found.
    (void)grads;
    TL_TODO("LossScaler::unscale_");
}

void LossScaler::update() {
    // TODO: at::_amp_update_scale_ with the options' factors and interval.
    TL_TODO("LossScaler::update");
}

double LossScaler::current_scale() const { return scale_.item<double>(); }

std::int64_t LossScaler::good_steps() const { return growth_tracker_.item<std::int64_t>(); }

bool scaled_sgd_step(const std::vector<at::Tensor>& params,
                     const std::function<at::Tensor()>& loss_fn, double lr, LossScaler& scaler) {
    // TODO: reject empty params or lr <= 0 with std::invalid_argument.
    // TODO: zero the gradients that exist, then backward() on the SCALED loss.
    // TODO: unscale the gradients; if they are finite, p -= lr * grad under at::NoGradGuard.
    // TODO: update the scaler whether or not the step was taken, and return whether it was.
    (void)params;
    (void)loss_fn;
    (void)lr;
    (void)scaler;
    TL_TODO("scaled_sgd_step: scale, backward, unscale, step if finite, update");
}

}  // namespace ex
