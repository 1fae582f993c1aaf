// Mistake: Reads the data as float without converting the dtype
// const_data_ptr<float>() on an int64, bool or half tensor throws a c10::Error: the values must
// be converted to float32 first.
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
    const at::Tensor host = t.detach().to(at::kCPU).contiguous();
    // const_data_ptr: read-only access to the first element (storage offset included).
    const auto* first = host.const_data_ptr<float>();
    return {first, first + host.numel()};
}

}  // namespace ex
