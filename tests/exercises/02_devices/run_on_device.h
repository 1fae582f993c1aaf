/// @file run_on_device.h
/// @brief Exercise run_on_device: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <functional>

namespace ex {

/// Given: the device that is current for `type` right now, as its backend reports it — the same
/// query a c10::DeviceGuard makes to remember what to restore. "cpu" for the CPU; for CUDA the
/// device torch.cuda.current_device() names.
/// @throws c10::Error if the backend cannot answer (CUDA on a machine without a GPU).
inline c10::Device current_device(c10::DeviceType type) {
    return c10::impl::getDeviceGuardImpl(type)->getDevice();
}

/// Runs `body` with `device` made current for its device type — `with torch.cuda.device(i):` in
/// Python — and returns the device that was current while `body` ran. The device that was current
/// before is current again afterwards, also when `body` throws (the exception propagates).
/// A device without an index ("cuda") leaves the current device as it is.
c10::Device run_on_device(const c10::Device& device, const std::function<void()>& body);

}  // namespace ex
