/// @file device.h
/// @brief The course's one device layer: choose, parse and describe devices; synchronise them;
/// read the CUDA caching allocator's memory statistics.
///
/// Every lesson, test and benchmark goes through these functions, so "--device cuda:1" means the
/// same thing everywhere and a device that is not there is always the same clear error.
#pragma once

#include <c10/core/Device.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace torchlings {

/// Thrown when a device string is malformed or names a device this machine does not have.
/// The message names what was asked and lists what is available.
class DeviceError : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

/// The syntax of a device request, before checking that the device exists.
struct DeviceSpec {
    /// "auto", "cpu", "cuda" or "mps".
    std::string kind;
    /// The CUDA ordinal of "cuda:N"; empty for "cuda" (meaning the current device, 0 by default).
    std::optional<int> index;
};

/// Parses `auto | cpu | cuda | cuda:N | mps` (case-sensitive, no spaces).
/// @throws DeviceError for anything else ("gpu", "cuda:x", "cuda:-1", "cuda:01", "").
DeviceSpec parse_device_spec(std::string_view text);

/// Every device this process can use, in the order `auto` prefers them: each CUDA GPU, MPS,
/// then the CPU (always present).
std::vector<c10::Device> available_devices();

/// The devices of available_devices() as "cuda:0, cuda:1, cpu".
std::string describe_available_devices();

/// Resolves a request to a device that exists: `auto` picks CUDA (device 0), then MPS, then CPU.
/// @throws DeviceError if the string is malformed or the device is absent; never falls back.
c10::Device choose_device(std::string_view text = "auto");

/// Blocks until all work queued on `device` has finished (a no-op on the CPU). Timing a device
/// without this measures only how long it took to *queue* the work.
void synchronize(const c10::Device& device);

/// Makes `device` the current device of the calling thread, context included. A thread you start
/// has CUDA device 0 *selected* but no context *current* until its first CUDA runtime call, and
/// LibTorch skips that call when device 0 is asked for (to avoid creating contexts needlessly), so
/// a guard alone leaves cuBLAS warning "there was no current CUDA context". Call this first in
/// every thread that runs work on a GPU. A no-op for the CPU and other non-CUDA devices.
/// @throws DeviceError if `device` is a CUDA device this machine does not have.
void use_device_in_this_thread(const c10::Device& device);

/// One GPU as a deviceQuery-style report shows it.
struct GpuInfo {
    int index = 0;                   ///< CUDA ordinal.
    std::string name;                ///< e.g. "NVIDIA H100 80GB HBM3".
    int major = 0;                   ///< Compute capability, major part.
    int minor = 0;                   ///< Compute capability, minor part.
    int multiprocessors = 0;         ///< Streaming multiprocessor count.
    std::uint64_t total_memory = 0;  ///< Bytes.
    std::uint64_t free_memory = 0;   ///< Bytes free now (cudaMemGetInfo).
    int max_threads_per_block = 0;   ///< Largest block the GPU accepts.
    int warp_size = 0;               ///< Threads per warp.
};

/// What this machine and this LibTorch can do, gathered without throwing.
struct MachineReport {
    std::string torch_version;           ///< e.g. "2.15.0".
    bool torch_built_with_cuda = false;  ///< A CUDA LibTorch (the libraries are there).
    bool project_cuda_kernels = false;   ///< The course's own .cu kernels were compiled.
    int cuda_built_version = 0;          ///< The CUDA LibTorch was compiled for, e.g. 13020.
    int cuda_runtime_version = 0;    ///< cudaRuntimeGetVersion: the libcudart loaded; 0 if none.
    int cuda_driver_version = 0;     ///< cudaDriverGetVersion; 0 means no driver.
    long cudnn_version = 0;          ///< 0 if cuDNN is unavailable.
    bool cuda_available = false;     ///< torch::cuda::is_available().
    int cuda_device_count = 0;       ///< Cast from c10::DeviceIndex (a char) before printing.
    std::vector<GpuInfo> gpus;       ///< One entry per visible GPU.
    bool mps_available = false;      ///< Apple GPUs (always false on Linux).
    int cpu_threads = 0;             ///< at::get_num_threads(): ATen's intra-op threads.
    std::vector<std::string> notes;  ///< Plain-language reasons, e.g. why CUDA is unavailable.
};

/// Gathers the report. Never throws: a query that fails becomes a note.
MachineReport machine_report();

/// Formats a version integer such as 13020 as "13.2"; 0 as "none".
std::string format_cuda_version(int version);

/// Formats a byte count as "79.1 GiB", "512.0 MiB", "17 B".
std::string format_bytes(std::uint64_t bytes);

/// The CUDA caching allocator's view of one device, as torch.cuda.memory_* report it.
struct MemoryStats {
    bool applicable = false;      ///< False on the CPU and MPS: there is no such allocator.
    std::string reason;           ///< Why it is not applicable.
    std::uint64_t allocated = 0;  ///< Bytes held by live tensors.
    std::uint64_t reserved = 0;   ///< Bytes the allocator holds from the driver (>= allocated).
    std::uint64_t peak_allocated = 0;  ///< Highest `allocated` since the last reset_peak_memory.
    std::uint64_t free = 0;            ///< Device memory free now (outside the cache too).
    std::uint64_t total = 0;           ///< Device memory in all.
};

/// Reads the allocator's statistics for `device`; on CPU/MPS returns `applicable == false`.
/// @throws DeviceError if `device` is a CUDA device that does not exist.
MemoryStats memory_stats(const c10::Device& device);

/// Starts a new peak for memory_stats().peak_allocated. No-op where not applicable.
void reset_peak_memory(const c10::Device& device);

/// Returns the CUDA caching allocator's cached, unused blocks to the driver, on EVERY GPU: the
/// allocator's emptyCache() has no per-device form, so this takes no device (it is
/// torch.cuda.empty_cache()). It frees nothing that a live tensor holds; it helps allocations that
/// bypass the cache (your own cudaMalloc, NCCL, other libraries, other processes). No-op when no
/// GPU is visible.
void empty_cache();

}  // namespace torchlings
