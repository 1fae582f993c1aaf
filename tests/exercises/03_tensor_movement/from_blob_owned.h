/// @file from_blob_owned.h
/// @brief Exercise from_blob_owned: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/util/ArrayRef.h>

#include <vector>

namespace ex {

/// A float32 CPU tensor of `shape` that *borrows* the memory of `values`: no copy is made, and
/// a write through either one is seen by the other. The caller must keep `values` alive, and
/// must not resize it, for as long as the tensor is used.
/// @throws std::invalid_argument if a size is negative or the shape holds a different number
///         of elements than `values`.
at::Tensor borrowed_tensor(std::vector<float>& values, c10::IntArrayRef shape);

/// A float32 CPU tensor of `shape` that holds its own copy of `values`: `values` may change or
/// be destroyed afterwards without affecting it.
/// @throws std::invalid_argument as borrowed_tensor does.
at::Tensor owned_tensor(const std::vector<float>& values, c10::IntArrayRef shape);

/// `values` as a float32 tensor of `shape` on `device` that owns its memory, on every device:
/// on the CPU too, where a plain .to(device) would still borrow `values`.
/// @throws std::invalid_argument as borrowed_tensor does.
at::Tensor upload(const std::vector<float>& values, c10::IntArrayRef shape, c10::Device device);

}  // namespace ex
