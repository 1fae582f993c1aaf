// Mistake: Returns an empty list when there is no GPU
// The list must never be empty: without GPUs it is just the CPU, so that callers can always use
// devices.front(). The no-GPU test expects {cpu}.
#include "usable_devices.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ex {

std::vector<c10::Device> usable_devices(int wanted, int gpu_count) {
    // Asking for no device at all is a bug in the caller, not a request for the CPU.
    if (wanted < 1) {
        throw std::invalid_argument("usable_devices: expected wanted >= 1, got " +
                                    std::to_string(wanted));
    }
    std::vector<c10::Device> devices;
    const int take = std::min(wanted, std::max(gpu_count, 0));
    for (int i = 0; i < take; ++i) {
        devices.emplace_back(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(i));
    }
    // Never empty: callers can always use devices.front().
    return devices;
}

}  // namespace ex
