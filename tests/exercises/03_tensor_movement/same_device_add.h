/// @file same_device_add.h
/// @brief Exercise same_device_add: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

namespace ex {

/// a + b, computed on a's device: b is moved there first when it lives elsewhere.
/// The result is on a.device(), with the usual broadcasting and type promotion.
/// @throws std::invalid_argument if either tensor is undefined.
at::Tensor add_on_device_of_first(const at::Tensor& a, const at::Tensor& b);

/// Where to compute with one tensor on `a` and one on `b`: when exactly one of them is on the
/// CPU, the other (non-CPU) device, because the bulk of the data and the fast hardware are
/// usually there; otherwise `a`.
c10::Device compute_device(c10::Device a, c10::Device b);

/// a + b on compute_device(a.device(), b.device()), moving only the tensor that is elsewhere.
/// @throws std::invalid_argument if either tensor is undefined.
at::Tensor add_on_compute_device(const at::Tensor& a, const at::Tensor& b);

}  // namespace ex
