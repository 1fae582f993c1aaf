// Mistake: Compares the two devices with operator==
// c10::Device::operator== compares the index as written: "cuda" and "cuda:0" differ, and so do
// "cpu" and "cpu:0", although they name the same hardware.
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
    if (device.is_cpu()) {
        // There is one CPU device: "cpu:0" is only another spelling of it.
        return c10::Device(c10::DeviceType::CPU);
    }
    return device;
}

bool same_device(const c10::Device& a, const c10::Device& b, int current_gpu) {
    // Once both are resolved, operator== compares what matters: the type and the real index.
    (void)current_gpu;
    return a == b;
}

}  // namespace ex
