// Mistake: Reports no CUDA without asking LibTorch
// this_machine() must say what torch::cuda::is_available() says. On a machine without a GPU
// "no CUDA" is the truth, so only a GPU machine can tell.
// Caught with a GPU only.
#include "choose_device.h"

#include <torch/cuda.h>

namespace ex {

c10::Device device_or_cpu(int requested_gpu, int gpu_count) {
    // Both bounds: a negative index is as absent as one past the last GPU.
    if (requested_gpu >= 0 && requested_gpu < gpu_count) {
        return {c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(requested_gpu)};
    }
    return c10::Device(c10::DeviceType::CPU);
}

CudaReport this_machine() { return {false, 0}; }

c10::Device best_available_device(const CudaReport& report) {
    // is_available() already means "CUDA build, a driver and at least one GPU"; a count without
    // it (a GPU the driver cannot use) counts for nothing.
    return device_or_cpu(0, report.available ? report.device_count : 0);
}

}  // namespace ex
