// Mistake: Trusts the parsed index without checking that it is the one written
// LibTorch keeps 8 bits of the index, so "cuda:256" reads as cuda:0, which exists on a machine
// with 8 GPUs. Comparing device.str() with the text catches the wrap; the test expects
// std::out_of_range.
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
