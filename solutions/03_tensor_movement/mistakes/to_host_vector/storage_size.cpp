// Mistake: Takes as many floats as the storage holds
// The storage of a view can be larger than the view: a slice of three elements of 0..9 keeps
// all ten in its storage. The count is numel().
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
    const auto* first = host.const_data_ptr<float>();
    const auto count = static_cast<std::ptrdiff_t>(host.storage().nbytes() / sizeof(float));
    return {first, first + count};
}

}  // namespace ex
