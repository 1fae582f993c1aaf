// Mistake: Returns cuda:0 whichever GPU was requested
// The index is dropped: device_or_cpu(3, 4) must be cuda:3. The device list is an argument, so
// this is seen on any machine.
#include "choose_device.h"

#include <torch/cuda.h>

namespace ex {

c10::Device device_or_cpu(int requested_gpu, int gpu_count) {
    // Both bounds: a negative index is as absent as one past the last GPU.
    if (requested_gpu >= 0 && requested_gpu < gpu_count) {
        return {c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(0)};
    }
    return c10::Device(c10::DeviceType::CPU);
}

CudaReport this_machine() {
    return {torch::cuda::is_available(), static_cast<int>(torch::cuda::device_count())};
}

c10::Device best_available_device(const CudaReport& report) {
    // is_available() already means "CUDA build, a driver and at least one GPU"; a count without
    // it (a GPU the driver cannot use) counts for nothing.
    return device_or_cpu(0, report.available ? report.device_count : 0);
}

}  // namespace ex
