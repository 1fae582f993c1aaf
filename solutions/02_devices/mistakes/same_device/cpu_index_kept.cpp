// Mistake: Leaves "cpu:0" as it is
// There is one CPU: "cpu:0" must resolve to "cpu", or same_device(cpu, cpu:0) is false.
#include "same_device.h"

#include <stdexcept>
#include <string>

namespace ex {

c10::Device resolve_device(const c10::Device& device, int current_gpu) {
    if (device.is_cuda() && !device.has_index()) {
        // "cuda" is decided when it is used: then it is whichever GPU is current.
        if (current_gpu < 0) {
            throw std::invalid_argument(
                "resolve_device: expected a current GPU >= 0 to resolve 'cuda', got " +
                std::to_string(current_gpu));
        }
        return {c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(current_gpu)};
    }
    return device;
}

bool same_device(const c10::Device& a, const c10::Device& b, int current_gpu) {
    // Once both are resolved, operator== compares what matters: the type and the real index.
    return resolve_device(a, current_gpu) == resolve_device(b, current_gpu);
}

}  // namespace ex
