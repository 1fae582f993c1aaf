// Mistake: Answers a request for no device with the CPU
// wanted < 1 is a caller's bug and must throw std::invalid_argument, not quietly give a device.
#include "usable_devices.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ex {

std::vector<c10::Device> usable_devices(int wanted, int gpu_count) {
    // Asking for no device at all is a bug in the caller, not a request for the CPU.
    std::vector<c10::Device> devices;
    const int take = std::min(wanted, std::max(gpu_count, 0));
    for (int i = 0; i < take; ++i) {
        devices.emplace_back(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(i));
    }
    // Never empty: callers can always use devices.front().
    if (devices.empty()) {
        devices.emplace_back(c10::DeviceType::CPU);
    }
    return devices;
}

}  // namespace ex
