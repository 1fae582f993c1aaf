// Mistake: Switches the current device and never switches back
// Setting the device through the backend without a guard leaves it current after the call;
// the tests use a simulated backend with eight devices, so this is seen without a GPU.
#include "run_on_device.h"

#include <c10/core/DeviceGuard.h>

namespace ex {

c10::Device run_on_device(const c10::Device& device, const std::function<void()>& body) {
    if (device.has_index()) {
        c10::impl::getDeviceGuardImpl(device.type())->setDevice(device);
    }
    // Ask the backend, not the guard: this is what code inside `body` sees.
    const c10::Device inside = current_device(device.type());
    body();
    return inside;
}

}  // namespace ex
