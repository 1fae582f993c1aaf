/// @file parse_device_checked.h
/// @brief Exercise parse_device_checked: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/Device.h>

#include <string>

namespace ex {

/// Parses a device string of a CUDA machine — "cpu", "cuda" or "cuda:N" — and checks that the
/// device exists on a machine with `gpu_count` GPUs. "cuda" (no index) needs at least one GPU.
/// @throws std::invalid_argument if LibTorch cannot parse `text`, or parses it as a device type
///         other than cpu and cuda (the message quotes `text`).
/// @throws std::out_of_range if it names a GPU this machine does not have (the message quotes
///         `text` and says how many GPUs there are), including an index too large for the
///         8-bit c10::DeviceIndex, which LibTorch's parser silently wraps ("cuda:256" reads as
///         cuda:0).
c10::Device parse_device_checked(const std::string& text, int gpu_count);

}  // namespace ex
