// Mistake: Runs the body before making the device current
// The guard must be alive while body() runs; here body() sees the previous device.
#include "run_on_device.h"

#include <c10/core/DeviceGuard.h>

namespace ex {

c10::Device run_on_device(const c10::Device& device, const std::function<void()>& body) {
    // RAII: the destructor switches back on return and on an exception alike.
    body();
    const c10::DeviceGuard guard(device);
    // Ask the backend, not the guard: this is what code inside `body` sees.
    return current_device(device.type());
}

}  // namespace ex
