// Mistake: Lets "cuda" without an index through on a machine without GPUs
// "cuda" means the current GPU, which exists only if some GPU does: with 0 GPUs it is out of
// range.
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
    std::optional<c10::Device> parsed;
    try {
        parsed.emplace(text);
    } catch (const c10::Error& e) {
        // Keep LibTorch's reason but throw the standard type callers catch for bad input.
        throw std::invalid_argument("invalid device '" + text +
                                    "': expected cpu, cuda or cuda:N (" +
                                    e.what_without_backtrace() + ")");
    }
    const c10::Device device = *parsed;
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
    if (device.is_cuda() && device.has_index()) {
        // "cuda" means the current GPU, which exists only if some GPU does.
        const int index = device.index();
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
