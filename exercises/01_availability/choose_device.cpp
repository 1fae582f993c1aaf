/// @file choose_device.cpp
/// @brief Exercise choose_device (lesson 01): choose a GPU, or fall back to the CPU.
///
/// Code that must run on any machine asks for a GPU and falls back to the CPU when there is
/// none. Write the decision once, as a pure function of what the machine reports (easy to test
/// on any machine), then ask this machine.
/// Check it with: ./torchlings check choose_device      Stuck? ./torchlings hint choose_device
#include "choose_device.h"

#include <torchlings/exercise.h>

#include <torch/cuda.h>

namespace ex {

c10::Device device_or_cpu(int requested_gpu, int gpu_count) {
    // TODO: return CUDA device `requested_gpu` if it exists (0 <= requested_gpu < gpu_count),
    //       otherwise the CPU.
    (void)requested_gpu;
    (void)gpu_count;
    TL_TODO("device_or_cpu: pick the GPU when it exists, else the CPU");
}

CudaReport this_machine() {
    // TODO: ask LibTorch: torch::cuda::is_available() and torch::cuda::device_count().
    TL_TODO("this_machine: ask torch::cuda::is_available() and torch::cuda::device_count()");
}

c10::Device best_available_device(const CudaReport& report) {
    // TODO: CUDA device 0 if the report says CUDA is available with a GPU, else the CPU.
    (void)report;
    TL_TODO("best_available_device: decide from the report, not from this machine");
}

}  // namespace ex
