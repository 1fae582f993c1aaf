/// @file choose_device.h
/// @brief Exercise choose_device: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/Device.h>

namespace ex {

/// CUDA device `requested_gpu` when 0 <= requested_gpu < gpu_count, else the CPU.
c10::Device device_or_cpu(int requested_gpu, int gpu_count);

/// The best device of this machine: CUDA device 0 when CUDA is available, else the CPU.
c10::Device best_available_device();

}  // namespace ex
