// Mistake: Returns the from_blob view itself as the owned tensor
// from_blob neither copies nor owns: the tensor still reads the vector, so a later change shows
// through and a destroyed vector leaves it dangling. The test checks its data pointer first.
#include "from_blob_owned.h"

#include <ATen/ops/from_blob.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ex {

namespace {

/// Checks that `shape` describes exactly `count` elements.
void check_shape(c10::IntArrayRef shape, std::size_t count) {
    std::int64_t numel = 1;
    for (const std::int64_t size : shape) {
        // A negative size could still multiply to the right count ({-2, -2}): reject it first.
        if (size < 0) {
            throw std::invalid_argument("expected sizes >= 0, got " + std::to_string(size));
        }
        // A product that overflows cannot match a vector's size; say so instead of wrapping.
        if (__builtin_mul_overflow(numel, size, &numel)) {
            throw std::invalid_argument("expected a shape of " + std::to_string(count) +
                                        " elements, got one whose size overflows int64");
        }
    }
    if (numel != static_cast<std::int64_t>(count)) {
        throw std::invalid_argument("expected a shape of " + std::to_string(count) +
                                    " elements, got one of " + std::to_string(numel));
    }
}

}  // namespace

at::Tensor borrowed_tensor(std::vector<float>& values, c10::IntArrayRef shape) {
    check_shape(shape, values.size());
    // from_blob wraps the pointer without copying and without taking ownership.
    return at::from_blob(values.data(), shape, at::kFloat);
}

at::Tensor owned_tensor(const std::vector<float>& values, c10::IntArrayRef shape) {
    check_shape(shape, values.size());
    // from_blob's pointer is non-const, but the borrowed view is only read, by clone(), at once.
    return at::from_blob(const_cast<float*>(values.data()), shape, at::kFloat);
}

at::Tensor upload(const std::vector<float>& values, c10::IntArrayRef shape, c10::Device device) {
    check_shape(shape, values.size());
    const at::Tensor borrowed = at::from_blob(const_cast<float*>(values.data()), shape, at::kFloat);
    // copy=true: on the CPU a plain to(device) would return the borrowed view itself; elsewhere
    // it is the one copy that was going to happen anyway.
    return borrowed.to(device, at::kFloat, /*non_blocking=*/false, /*copy=*/true);
}

}  // namespace ex
