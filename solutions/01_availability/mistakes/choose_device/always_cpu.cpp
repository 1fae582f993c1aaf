// Mistake: Decides for the CPU whatever the machine reports
// best_available_device must be cuda:0 for a machine that reports CUDA with a GPU. The report
// is an argument, so the tests pass the report of a GPU machine on any machine.
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

CudaReport this_machine() {
    return {torch::cuda::is_available(), static_cast<int>(torch::cuda::device_count())};
}

c10::Device best_available_device(const CudaReport& report) {
    // is_available() already means "CUDA build, a driver and at least one GPU"; a count without
    // it (a GPU the driver cannot use) counts for nothing.
    (void)report;
    return c10::Device(c10::DeviceType::CPU);
}

}  // namespace ex
