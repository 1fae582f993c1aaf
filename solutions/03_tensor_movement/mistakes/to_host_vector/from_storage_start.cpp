// Mistake: Reads from the start of the storage instead of the tensor's first element
// A slice such as elements 2 to 4 of 0..9 is contiguous, so contiguous() keeps it as it is, with
// a storage offset of 2; the storage's first float is element 0.
#include "to_host_vector.h"

#include <stdexcept>

namespace ex {

std::vector<float> to_host_vector(const at::Tensor& t) {
    // An undefined tensor has no device, dtype or data to ask about: say so plainly.
    if (!t.defined()) {
        throw std::invalid_argument(
            "to_host_vector: expected a defined tensor, got an undefined one");
    }
    // detach: the copy needs no autograd history; to(kCPU, kFloat): host memory in the vector's
    // type (a no-op when both already match); contiguous: row-major order, whatever the strides.
    const at::Tensor host = t.detach().to(at::kCPU, at::kFloat).contiguous();
    // const_data_ptr: read-only access to the first element (storage offset included).
    const auto* first = static_cast<const float*>(host.storage().data());
    return {first, first + host.numel()};
}

}  // namespace ex
