/// @file run_on_device.cpp
/// @brief Exercise run_on_device (lesson 02): run code with a device made current for a scope.
///
/// Python's `with torch.cuda.device(i):` makes GPU i current and switches back at the end of the
/// block. In C++ an RAII guard does it: the constructor switches, the destructor switches back,
/// also when an exception leaves the scope. c10::DeviceGuard works for any device type (and is a
/// no-op on the CPU); c10::cuda::CUDAGuard is its CUDA-only form.
/// Check it with: ./torchlings check run_on_device      Stuck? ./torchlings hint run_on_device
#include "run_on_device.h"

#include <torchlings/exercise.h>

#include <c10/core/DeviceGuard.h>

namespace ex {

c10::Device run_on_device(const c10::Device& device, const std::function<void()>& body) {
    // TODO: make `device` current for the rest of this scope with a c10::DeviceGuard, so that it
    //       is switched back however the function ends.
    // TODO: note the current device (ex::current_device(device.type())), run `body`, and return
    //       what you noted.
    (void)device;
    (void)body;
    TL_TODO("run_on_device: a c10::DeviceGuard, then body()");
}

}  // namespace ex
