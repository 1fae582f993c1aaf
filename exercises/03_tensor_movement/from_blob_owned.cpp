/// @file from_blob_owned.cpp
/// @brief Exercise from_blob_owned (lesson 03): wrap host memory, and own it when you must.
///
/// at::from_blob(pointer, shape, dtype) turns memory you already have into a tensor without
/// copying it. The tensor does not own that memory: when the vector changes, the tensor
/// changes; when the vector is freed, the tensor dangles. clone() (or to(..., copy=true))
/// gives a tensor that owns a copy.
/// Check it with: ./torchlings check from_blob_owned      Stuck? ./torchlings hint from_blob_owned
#include "from_blob_owned.h"

#include <torchlings/exercise.h>

#include <ATen/ops/from_blob.h>

#include <stdexcept>

namespace ex {

at::Tensor borrowed_tensor(std::vector<float>& values, c10::IntArrayRef shape) {
    // TODO: check the shape: no negative size, and as many elements as values.size();
    //       throw std::invalid_argument otherwise (you will need the same check three times).
    // TODO: wrap values.data() with at::from_blob as a float32 tensor of `shape`.
    (void)values;
    (void)shape;
    TL_TODO("borrowed_tensor: check the shape, then at::from_blob");
}

at::Tensor owned_tensor(const std::vector<float>& values, c10::IntArrayRef shape) {
    // TODO: check the shape, wrap the memory as above, and return a copy that owns its data.
    (void)values;
    (void)shape;
    TL_TODO("owned_tensor: from_blob, then clone()");
}

at::Tensor upload(const std::vector<float>& values, c10::IntArrayRef shape, c10::Device device) {
    // TODO: check the shape, wrap the memory, and move it to `device` so that the result owns
    //       its memory on every device, the CPU included, with a single copy.
    (void)values;
    (void)shape;
    (void)device;
    TL_TODO("upload: from_blob, then to(device, ..., copy=true)");
}

}  // namespace ex
