/// @file move_if_needed.h
/// @brief Exercise move_if_needed: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

#include <optional>

namespace ex {

/// Whether a tensor on `tensor_device` is already on `target`, as Tensor::to() decides it: a
/// CUDA target without an index means the current CUDA device, `current_cuda_index`; every other
/// device is compared as it is.
/// @throws std::invalid_argument if `tensor_device` is a CUDA device without an index (a CUDA
///         tensor always knows its GPU).
bool already_on(c10::Device tensor_device, c10::Device target, c10::DeviceIndex current_cuda_index);

/// The result of move_if_needed().
struct Moved {
    at::Tensor tensor;    ///< The tensor on the target device (and dtype).
    bool copied = false;  ///< False when `tensor` is the input tensor itself.
};

/// `t` on `target` and, when given, in `dtype`: `t` itself when it is already there (no
/// allocation, no copy), else a copy. `copied` says which happened.
/// @throws std::invalid_argument if `t` is undefined.
Moved move_if_needed(const at::Tensor& t, c10::Device target,
                     std::optional<c10::ScalarType> dtype = std::nullopt);

}  // namespace ex
