/// @file tensor_on_device.h
/// @brief Exercise tensor_on_device: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>

namespace ex {

/// A tensor of `shape` and `dtype` whose every element is `value`, created directly on `device`
/// through TensorOptions: no temporary on another device, no temporary of another dtype (a
/// float32 detour would round 0.1 or 16777217 before the conversion could keep them).
at::Tensor filled_on(c10::IntArrayRef shape, c10::ScalarType dtype, const c10::Device& device,
                     double value);

/// A tensor of zeros of `shape` on the same device and with the same dtype as `like` — the
/// buffer a function allocates for its result, wherever its input lives.
/// @throws std::invalid_argument if `like` is undefined.
at::Tensor zeros_next_to(const at::Tensor& like, c10::IntArrayRef shape);

}  // namespace ex
