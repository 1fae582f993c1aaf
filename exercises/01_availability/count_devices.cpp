/// @file count_devices.cpp
/// @brief Exercise count_devices (lesson 01): print a device count that reads as a number.
///
/// torch::cuda::device_count() returns c10::DeviceIndex, an 8-bit integer. `std::cout << 2` of
/// that type prints the character with code 2, not "2". Describe a count in words, correctly.
/// Check it with: ./torchlings check count_devices      Stuck? ./torchlings hint count_devices
#include "count_devices.h"

#include <torchlings/exercise.h>

#include <stdexcept>
#include <string>

namespace ex {

std::string describe_device_count(c10::DeviceIndex count) {
    // TODO: reject a negative count with std::invalid_argument.
    // TODO: return "no CUDA devices", "1 CUDA device" or "<count> CUDA devices"; turn the count
    //       into text without printing it as a character.
    (void)count;
    TL_TODO("describe_device_count: describe the count in words");
}

}  // namespace ex
