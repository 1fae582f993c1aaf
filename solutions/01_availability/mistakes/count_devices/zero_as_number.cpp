// Mistake: Writes "0 CUDA devices" instead of "no CUDA devices"
// Zero is its own case in the specification; the zero-device test compares the words.
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
    // Cast before converting: DeviceIndex is an 8-bit type that streams as a character.
    const int n = static_cast<int>(count);
    return std::to_string(n) + (n == 1 ? " CUDA device" : " CUDA devices");
}

}  // namespace ex
