/// @file launch_then_sync.cpp
/// @brief Solution of launch_then_sync (lesson 07).
#include "launch_then_sync.h"

#include <c10/core/DeviceGuard.h>

#include <stdexcept>
#include <string>

namespace ex {

std::vector<at::Tensor> launch_then_sync(const std::vector<at::Tensor>& inputs,
                                         const std::vector<c10::Device>& devices, const Work& work,
                                         const Synchronize& synchronize) {
    if (devices.empty() || inputs.size() != devices.size()) {
        throw std::invalid_argument(
            "launch_then_sync: expected one input per device and at least one device, got " +
            std::to_string(inputs.size()) + " inputs and " + std::to_string(devices.size()) +
            " devices");
    }
    if (!work || !synchronize) {
        throw std::invalid_argument("launch_then_sync: expected a work and a synchronize function");
    }
    std::vector<at::Tensor> results;
    results.reserve(devices.size());
    // 1. Launch: each call returns as soon as its work is queued, so device i is busy while the
    //    host queues device i + 1's. Nothing here may wait for a device (no synchronize, no
    //    item() or .cpu() on a result).
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const c10::DeviceGuard guard(devices[i]);  // tensors work creates land on devices[i] too
        results.push_back(work(inputs[i].to(devices[i])));
    }
    // 2. Wait: every device, once all of them have their work.
    for (const auto& device : devices) {
        synchronize(device);
    }
    return results;
}

}  // namespace ex
