/// @file tensor_on_device.cpp
/// @brief Exercise tensor_on_device (lesson 02): create tensors directly where they will live.
///
/// LibTorch has no torch.set_default_device: factories make float32 CPU tensors unless their
/// TensorOptions say otherwise. Making a tensor on the CPU (or in float32) and converting it with
/// .to() costs a second tensor and a copy, and float32 has already rounded the values.
/// Check it with: ./torchlings check tensor_on_device
/// Stuck?         ./torchlings hint tensor_on_device
#include "tensor_on_device.h"

#include <torchlings/exercise.h>

#include <ATen/ops/full.h>
#include <ATen/ops/zeros.h>

#include <stdexcept>

namespace ex {

at::Tensor filled_on(c10::IntArrayRef shape, c10::ScalarType dtype, const c10::Device& device,
                     double value) {
    // TODO: build TensorOptions with the device and the dtype, and pass them to at::full, so
    //       the tensor is created on `device` with `dtype` and no .to() is needed.
    (void)shape;
    (void)dtype;
    (void)device;
    (void)value;
    TL_TODO("filled_on: at::full with TensorOptions().device(...).dtype(...)");
}

at::Tensor zeros_next_to(const at::Tensor& like, c10::IntArrayRef shape) {
    // TODO: reject an undefined `like` with std::invalid_argument.
    // TODO: make zeros of `shape` with `like`'s device and dtype (a tensor's options() carry
    //       both).
    (void)like;
    (void)shape;
    TL_TODO("zeros_next_to: at::zeros with the options of `like`");
}

}  // namespace ex
