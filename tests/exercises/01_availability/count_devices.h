/// @file count_devices.h
/// @brief Exercise count_devices: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/Device.h>

#include <string>

namespace ex {

/// Describes a CUDA device count in words: "no CUDA devices", "1 CUDA device", "4 CUDA devices".
/// @throws std::invalid_argument if `count` is negative.
std::string describe_device_count(c10::DeviceIndex count);

}  // namespace ex
