/// @file choose_device.cpp
/// @brief Exercise choose_device (lesson 01): choose a GPU, or fall back to the CPU.
///
/// Code that must run on any machine asks for a GPU and falls back to the CPU when there is
/// none. Write the decision once, as a pure function of the GPU count (easy to test on any
/// machine), then apply it to this machine.
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

c10::Device best_available_device() {
    // TODO: ask LibTorch whether CUDA is available; return CUDA device 0 if so, else the CPU.
    TL_TODO("best_available_device: ask torch::cuda::is_available()");
}

}  // namespace ex
