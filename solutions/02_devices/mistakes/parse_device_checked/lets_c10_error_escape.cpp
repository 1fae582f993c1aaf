// Mistake: Lets LibTorch's c10::Error escape for text it cannot parse
// The specification promises std::invalid_argument, the standard type callers catch for bad
// input; c10::Error is not one, so CHECK_THROWS_AS(..., std::invalid_argument) fails.
#include "parse_device_checked.h"

#include <c10/util/Exception.h>

#include <optional>
#include <stdexcept>
#include <string>

namespace ex {

namespace {

std::string gpus_here(int gpu_count) {
    return "this machine has " + std::to_string(gpu_count) + (gpu_count == 1 ? " GPU" : " GPUs");
}

}  // namespace

c10::Device parse_device_checked(const std::string& text, int gpu_count) {
    const c10::Device device(text);
    // LibTorch also parses mps, meta, xla, ...: this machine's choices are the CPU and its GPUs.
    if (!device.is_cpu() && !device.is_cuda()) {
        throw std::invalid_argument("invalid device '" + text +
                                    "': expected cpu, cuda or cuda:N, got a " +
                                    c10::DeviceTypeName(device.type(), true) + " device");
    }
    // The parser keeps only 8 bits of the index: a round trip shows when it read another number.
    if (device.str() != text) {
        throw std::out_of_range("device '" + text + "' is out of range: LibTorch reads it as '" +
                                device.str() + "' (a device index has 8 bits); " +
                                gpus_here(gpu_count));
    }
    if (device.is_cuda()) {
        // "cuda" means the current GPU, which exists only if some GPU does.
        const int index = device.has_index() ? device.index() : 0;
        if (index >= gpu_count) {
            throw std::out_of_range(
                "device '" + text + "' does not exist: " + gpus_here(gpu_count) +
                (gpu_count > 0 ? ", cuda:0 to cuda:" + std::to_string(gpu_count - 1)
                               : std::string()));
        }
    }
    return device;
}

}  // namespace ex
