// Mistake: Copies the memory as it is laid out, without contiguous()
// A transposed view keeps the memory of the original: reading numel() floats from its data
// pointer gives 0 1 2 3 4 5 instead of the order it prints in, 0 3 1 4 2 5.
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
    const at::Tensor host = t.detach().to(at::kCPU, at::kFloat);
    // const_data_ptr: read-only access to the first element (storage offset included).
    const auto* first = host.const_data_ptr<float>();
    return {first, first + host.numel()};
}

}  // namespace ex
