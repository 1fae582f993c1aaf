// Mistake: Fills a float32 tensor on the device, then converts it to the dtype
// The float32 temporary rounds the value first: 0.1 becomes 0.10000000149011612 in float64 and
// 16777217 becomes 16777216 in int64. The tests compare exactly.
#include "tensor_on_device.h"

#include <ATen/ops/full.h>
#include <ATen/ops/zeros.h>

#include <stdexcept>

namespace ex {

at::Tensor filled_on(c10::IntArrayRef shape, c10::ScalarType dtype, const c10::Device& device,
                     double value) {
    // One allocation, on the target, in the target dtype: nothing to copy, nothing rounded.
    return at::full(shape, value, at::TensorOptions().device(device)).to(dtype);
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
