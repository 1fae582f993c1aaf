/// @file usable_devices.h
/// @brief Exercise usable_devices: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/Device.h>

#include <vector>

namespace ex {

/// Up to `wanted` GPUs of the `gpu_count` present (cuda:0, cuda:1, ... in order); when there are
/// none, just the CPU. Never empty.
/// @throws std::invalid_argument if wanted < 1.
std::vector<c10::Device> usable_devices(int wanted, int gpu_count);

}  // namespace ex
