/// @file choose_device.h
/// @brief Exercise choose_device: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/Device.h>

namespace ex {

/// CUDA device `requested_gpu` when 0 <= requested_gpu < gpu_count, else the CPU.
c10::Device device_or_cpu(int requested_gpu, int gpu_count);

/// What LibTorch says about CUDA on one machine.
struct CudaReport {
    bool available = false;  ///< torch::cuda::is_available()
    int device_count = 0;    ///< torch::cuda::device_count()
};

/// What LibTorch says on this machine: torch::cuda::is_available() and device_count().
CudaReport this_machine();

/// The best device of a machine that reports `report`: CUDA device 0 when CUDA is available and
/// has a GPU, else the CPU. The report is an argument so that the choice can be tested for a GPU
/// machine on any machine.
c10::Device best_available_device(const CudaReport& report);

/// The best device of this machine: best_available_device(this_machine()).
inline c10::Device best_available_device() { return best_available_device(this_machine()); }

}  // namespace ex
