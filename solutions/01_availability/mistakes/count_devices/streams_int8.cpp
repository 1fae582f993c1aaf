// Mistake: Streams the 8-bit count into the text, which prints a character
// c10::DeviceIndex is an int8_t, and an ostream writes an int8_t as the character of that code:
// 8 becomes a backspace and 65 an 'A'. The test with 2, 8 and 65 devices compares the text.
#include "count_devices.h"

#include <sstream>
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
    std::ostringstream text;
    text << count << (count == 1 ? " CUDA device" : " CUDA devices");
    return text.str();
}

}  // namespace ex
