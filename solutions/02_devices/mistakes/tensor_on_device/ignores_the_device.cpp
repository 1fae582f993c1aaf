// Mistake: Creates the tensor with the right dtype on the CPU, whatever the device
// On a machine without a GPU every CPU test still passes; the test that asks for the meta
// device (shapes without data, on every machine) sees the tensor on the CPU.
#include "tensor_on_device.h"

#include <ATen/ops/full.h>
#include <ATen/ops/zeros.h>

#include <stdexcept>

namespace ex {

at::Tensor filled_on(c10::IntArrayRef shape, c10::ScalarType dtype, const c10::Device& device,
                     double value) {
    // One allocation, on the target, in the target dtype: nothing to copy, nothing rounded.
    (void)device;
    return at::full(shape, value, at::TensorOptions().dtype(dtype));
}

at::Tensor zeros_next_to(const at::Tensor& like, c10::IntArrayRef shape) {
    // options() of an undefined tensor would throw a less helpful error.
    if (!like.defined()) {
        throw std::invalid_argument(
            "zeros_next_to: expected a defined tensor, got an undefined one");
    }
    // options() carries the device (with its index) and the dtype of `like`.
    return at::zeros(shape, like.options());
}

}  // namespace ex
