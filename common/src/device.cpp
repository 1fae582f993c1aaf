/// @file device.cpp
/// @brief Device parsing, choice, synchronisation, reports and memory statistics (host side).
#include "torchlings/device.h"

#include "detail.h"
#include "torchlings/kernels.h"

#include <ATen/Parallel.h>
#include <torch/cuda.h>
#include <torch/mps.h>
#include <torch/version.h>

#include <array>
#include <charconv>
#include <cstdio>
#include <sstream>

namespace torchlings {

// Declared with the kernels (kernels.h); answered here, where the machine's report needs it, so
// that the device layer does not depend on the kernels' library. CMake defines TL_CUDA_KERNELS.
bool cuda_kernels_compiled() { return TL_CUDA_KERNELS != 0; }

namespace {

constexpr const char* kExpected = "expected one of auto, cpu, cuda, cuda:N (N = 0, 1, ...), mps";

[[noreturn]] void throw_malformed(std::string_view text) {
    throw DeviceError("Invalid device '" + std::string(text) + "': " + kExpected +
                      ". Available here: " + describe_available_devices() + ".");
}

[[noreturn]] void throw_absent(std::string_view text, const std::string& why) {
    throw DeviceError("Device '" + std::string(text) + "' is not available: " + why +
                      ". Available here: " + describe_available_devices() + ".");
}

int cuda_count() { return static_cast<int>(torch::cuda::device_count()); }

/// The CUDA ordinal `index` as a device, or a DeviceError naming `text` when this machine has no
/// such GPU.
c10::Device checked_cuda_device(std::string_view text, int index) {
    const int gpus = cuda_count();
    if (gpus == 0) {
        throw_absent(text,
                     "no CUDA GPU is visible to this process (torch::cuda::device_count() == 0)");
    }
    if (index >= gpus) {
        throw_absent(text, "this machine has " + std::to_string(gpus) + " CUDA GPU" +
                               (gpus == 1 ? "" : "s") + ", numbered from 0");
    }
    return c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(index));
}

}  // namespace

DeviceSpec parse_device_spec(std::string_view text) {
    if (text == "auto" || text == "cpu" || text == "cuda" || text == "mps") {
        return DeviceSpec{std::string(text), std::nullopt};
    }
    constexpr std::string_view kCudaPrefix = "cuda:";
    if (text.substr(0, kCudaPrefix.size()) != kCudaPrefix) {
        throw_malformed(text);
    }
    const std::string_view digits = text.substr(kCudaPrefix.size());
    // Digits only, no sign, no leading zero (as torch::Device itself insists), at most 3 digits.
    const bool well_formed = !digits.empty() && digits.size() <= 3 &&
                             digits.find_first_not_of("0123456789") == std::string_view::npos &&
                             (digits.size() == 1 || digits.front() != '0');
    if (!well_formed) {
        throw_malformed(text);
    }
    int index = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), index);
    return DeviceSpec{"cuda", index};
}

std::vector<c10::Device> available_devices() {
    std::vector<c10::Device> devices;
    const int gpus = cuda_count();
    for (int i = 0; i < gpus; ++i) {
        devices.emplace_back(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(i));
    }
    if (torch::mps::is_available()) {
        devices.emplace_back(c10::DeviceType::MPS);
    }
    devices.emplace_back(c10::DeviceType::CPU);
    return devices;
}

std::string describe_available_devices() {
    std::string out;
    for (const auto& device : available_devices()) {
        out += (out.empty() ? "" : ", ") + device.str();
    }
    return out;
}

c10::Device choose_device(std::string_view text) {
    const DeviceSpec spec = parse_device_spec(text);
    if (spec.kind == "auto") {
        return available_devices().front();  // CUDA, then MPS, then CPU: the list's own order
    }
    if (spec.kind == "cpu") {
        return c10::Device(c10::DeviceType::CPU);
    }
    if (spec.kind == "mps") {
        if (!torch::mps::is_available()) {
            throw_absent(text, "MPS (Apple GPUs) is not available on this machine");
        }
        return c10::Device(c10::DeviceType::MPS);
    }
    return checked_cuda_device(text, spec.index.value_or(0));
}

void synchronize(const c10::Device& device) {
    if (device.is_cuda()) {
        torch::cuda::synchronize(device.has_index() ? device.index() : -1);
    } else if (device.is_mps()) {
        torch::mps::synchronize();
    }
    // CPU operations are synchronous: nothing to wait for.
}

void use_device_in_this_thread(const c10::Device& device) {
    if (!device.is_cuda()) {
        return;
    }
    const auto checked = checked_cuda_device(device.str(), device.has_index() ? device.index() : 0);
    detail::cuda_make_current(checked.index());
}

std::string format_cuda_version(int version) {
    if (version <= 0) {
        return "none";
    }
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string format_bytes(std::uint64_t bytes) {
    constexpr std::array<const char*, 4> kUnits = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) {
        return std::to_string(bytes) + " B";
    }
    double value = static_cast<double>(bytes) / 1024.0;
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < kUnits.size()) {
        value /= 1024.0;
        ++unit;
    }
    std::array<char, 32> buffer{};
    std::snprintf(buffer.data(), buffer.size(), "%.1f %s", value, kUnits[unit]);
    return buffer.data();
}

MachineReport machine_report() {
    MachineReport report;
    report.torch_version = std::to_string(TORCH_VERSION_MAJOR) + "." +
                           std::to_string(TORCH_VERSION_MINOR) + "." +
                           std::to_string(TORCH_VERSION_PATCH);
    report.project_cuda_kernels = cuda_kernels_compiled();
    report.cpu_threads = at::get_num_threads();
    report.cuda_available = torch::cuda::is_available();
    report.cuda_device_count = cuda_count();
    report.mps_available = torch::mps::is_available();
    detail::fill_cuda_report(report);
    return report;
}

MemoryStats memory_stats(const c10::Device& device) {
    if (!device.is_cuda()) {
        MemoryStats stats;
        stats.reason = "the CUDA caching allocator manages CUDA memory only; " + device.str() +
                       " memory comes from the system allocator";
        return stats;
    }
    const c10::Device checked = choose_device(device.str());
    return detail::cuda_memory_stats(checked.index());
}

void reset_peak_memory(const c10::Device& device) {
    if (device.is_cuda()) {
        detail::cuda_reset_peak(choose_device(device.str()).index());
    }
}

void empty_cache() {
    if (torch::cuda::device_count() > 0) {
        detail::cuda_empty_cache();
    }
}

}  // namespace torchlings
