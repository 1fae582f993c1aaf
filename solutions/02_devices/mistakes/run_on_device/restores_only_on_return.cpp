// Mistake: Restores the previous device by hand, which an exception skips
// Saving and restoring around body() works until body() throws; then the old device is never
// current again. A c10::DeviceGuard restores in its destructor, on both paths.
#include "run_on_device.h"

#include <c10/core/DeviceGuard.h>

namespace ex {

c10::Device run_on_device(const c10::Device& device, const std::function<void()>& body) {
    const c10::Device before = current_device(device.type());
    auto* backend = c10::impl::getDeviceGuardImpl(device.type());
    if (device.has_index()) {
        backend->setDevice(device);
    }
    // Ask the backend, not the guard: this is what code inside `body` sees.
    const c10::Device inside = current_device(device.type());
    body();
    backend->setDevice(before);
    return inside;
}

}  // namespace ex
