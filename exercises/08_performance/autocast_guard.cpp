/// @file autocast_guard.cpp
/// @brief Exercise autocast_guard (lesson 08): mixed precision in C++, with an RAII guard.
///
/// Python writes `with torch.autocast("cpu", dtype=torch.bfloat16):`. C++ has the same switch in
/// ATen (ATen/autocast_mode.h) but no context manager: build one whose destructor puts things
/// back, then use it for one training step whose forward pass runs in bfloat16.
/// Check it with: ./torchlings check autocast_guard      Stuck? ./torchlings hint autocast_guard
#include "autocast_guard.h"

#include <torchlings/exercise.h>

#include <ATen/autocast_mode.h>
#include <ATen/core/grad_mode.h>

#include <stdexcept>
#include <string>

namespace ex {

AutocastGuard::AutocastGuard(c10::DeviceType device_type, c10::ScalarType dtype)
    : device_type_(device_type) {
    // TODO: remember whether autocast was enabled for device_type, and its dtype.
    // TODO: enable autocast for device_type in dtype, and count this guard in autocast's
    //       nesting counter.
    (void)dtype;
    TL_TODO("AutocastGuard: save the state, then enable autocast");
}

AutocastGuard::~AutocastGuard() {
    // TODO: take this guard off the nesting counter; when it reaches 0, clear autocast's cache.
    // TODO: restore the enabled flag and the dtype you saved (not simply "off").
}

double autocast_sgd_step(const std::vector<at::Tensor>& params,
                         const std::function<at::Tensor()>& loss_fn, double lr,
                         c10::DeviceType device_type, c10::ScalarType dtype) {
    // TODO: reject empty params or lr <= 0 with std::invalid_argument.
    // TODO: zero the gradients that exist.
    // TODO: compute loss_fn() inside a scope that holds an AutocastGuard; check it has one element.
    // TODO: after that scope, backward(); then p -= lr * grad for each p under at::NoGradGuard.
    // TODO: return the loss as a double.
    (void)params;
    (void)loss_fn;
    (void)lr;
    (void)device_type;
    (void)dtype;
    TL_TODO("autocast_sgd_step: forward under the guard, backward after it, then SGD");
}

}  // namespace ex
