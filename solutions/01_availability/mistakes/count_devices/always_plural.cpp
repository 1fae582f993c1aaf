// Mistake: Always writes "devices", also for one device
// "1 CUDA devices" reads wrong; the singular case is tested on its own.
#include "count_devices.h"

#include <stdexcept>
#include <string>

namespace ex {

std::string describe_device_count(c10::DeviceIndex count) {
    // A negative count can only come from a caller's bug: say so rather than print nonsense.
    if (count < 0) {
        throw std::invalid_argument("describe_device_count: expected a count >= 0, got " +
                                    std::to_string(static_cast<int>(count)));
    }
    if (count == 0) {
        return "no CUDA devices";
    }
    // Cast before converting: DeviceIndex is an 8-bit type that streams as a character.
    const int n = static_cast<int>(count);
    return std::to_string(n) + " CUDA devices";
}

}  // namespace ex
