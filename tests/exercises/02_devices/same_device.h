/// @file same_device.h
/// @brief Exercise same_device: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/Device.h>

namespace ex {

/// The device `device` refers to while CUDA's current device is `current_gpu`: "cuda" (no index)
/// becomes cuda:<current_gpu>, "cpu:0" becomes "cpu"; any other device is returned unchanged.
/// @throws std::invalid_argument if `device` is "cuda" without an index and current_gpu < 0.
c10::Device resolve_device(const c10::Device& device, int current_gpu);

/// Whether `a` and `b` name the same hardware while CUDA's current device is `current_gpu`:
/// true for "cuda" and "cuda:0" when current_gpu is 0, and for "cpu" and "cpu:0" — which
/// c10::Device::operator== calls different.
/// @throws std::invalid_argument as resolve_device does.
bool same_device(const c10::Device& a, const c10::Device& b, int current_gpu);

}  // namespace ex
