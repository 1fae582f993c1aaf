// Mistake: Describes a negative count as "no CUDA devices"
// A negative count is a caller's bug and must throw std::invalid_argument; a `<= 0` test
// turns it into a plausible answer instead. The negative-count test expects the exception.
#include "count_devices.h"

#include <stdexcept>
#include <string>

namespace ex {

std::string describe_device_count(c10::DeviceIndex count) {
    // A negative count can only come from a caller's bug: say so rather than print nonsense.
    if (count <= 0) {
        return "no CUDA devices";
    }
    // Cast before converting: DeviceIndex is an 8-bit type that streams as a character.
    const int n = static_cast<int>(count);
    return std::to_string(n) + (n == 1 ? " CUDA device" : " CUDA devices");
}

}  // namespace ex
