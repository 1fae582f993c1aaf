/// @file cuda_host.cpp
/// @brief The CUDA seam for a CUDA LibTorch: device properties, versions, allocator statistics
/// and timing events. Host code only, but it needs the CUDA headers, so it is built only when
/// LibTorch has CUDA.
#include "../detail.h"

#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime_api.h>
#include <torch/cuda.h>

#include <algorithm>

namespace torchlings::detail {

struct CudaEvents {
    // Timing must be asked for: the default flag is cudaEventDisableTiming.
    at::cuda::CUDAEvent start{cudaEventDefault};
    at::cuda::CUDAEvent stop{cudaEventDefault};
    c10::DeviceIndex device = 0;
};

void CudaEventsDeleter::operator()(CudaEvents* events) const noexcept { delete events; }

void fill_cuda_report(MachineReport& report) {
    report.torch_built_with_cuda = true;
    // Two different CUDA versions: the one LibTorch was compiled for (CUDART_VERSION when
    // libtorch_cuda was built, e.g. 13020 for a +cu132 wheel) and the libcudart this process
    // loaded (cudaRuntimeGetVersion), which may be the toolkit's rather than the wheel's.
    try {
        report.cuda_built_version = static_cast<int>(at::detail::getCUDAHooks().versionCUDART());
    } catch (const std::exception&) {
        report.cuda_built_version = 0;
    }
    cudaRuntimeGetVersion(&report.cuda_runtime_version);
    if (cudaDriverGetVersion(&report.cuda_driver_version) != cudaSuccess) {
        report.cuda_driver_version = 0;
    }
    // NVIDIA's CUDA Compatibility guide: within one major version, minor-version compatibility
    // lets a newer runtime run on an older driver (only JIT-compiling PTX newer than the driver
    // fails); a runtime of a newer MAJOR version cannot initialise at all, and device_count() is 0.
    const int newest = std::max(report.cuda_built_version, report.cuda_runtime_version);
    const bool older_major = report.cuda_driver_version / 1000 < newest / 1000;
    if (report.cuda_driver_version == 0) {
        report.notes.emplace_back(
            "No NVIDIA driver was found, so CUDA is unavailable. This LibTorch has CUDA; on a "
            "machine with an NVIDIA GPU, install its driver (nvidia-smi should list the GPU).");
    } else if (report.cuda_device_count == 0 && older_major) {
        report.notes.emplace_back(
            "The driver supports CUDA " + format_cuda_version(report.cuda_driver_version) +
            ", an older major version than " + format_cuda_version(newest) +
            ": CUDA cannot initialise (minor-version compatibility works only within one major "
            "version). Update the driver, or use a LibTorch built for the driver's CUDA.");
    } else if (report.cuda_device_count == 0) {
        report.notes.emplace_back(
            "A driver is installed but no GPU is visible: check nvidia-smi and "
            "CUDA_VISIBLE_DEVICES.");
    } else if (report.cuda_driver_version < newest) {
        report.notes.emplace_back(
            "The driver supports CUDA " + format_cuda_version(report.cuda_driver_version) +
            ", older than " + format_cuda_version(newest) +
            ": minor-version compatibility runs compiled kernels, but PTX newer than the driver "
            "cannot be JIT-compiled (\"unsupported toolchain\"). Update the driver if a kernel "
            "fails to load.");
    }
    if (torch::cuda::cudnn_is_available()) {
        try {
            report.cudnn_version = at::detail::getCUDAHooks().versionCuDNN();
        } catch (const std::exception&) {
            report.cudnn_version = 0;
        }
    }
    for (int i = 0; i < report.cuda_device_count; ++i) {
        try {
            const cudaDeviceProp* prop =
                at::cuda::getDeviceProperties(static_cast<c10::DeviceIndex>(i));
            GpuInfo gpu;
            gpu.index = i;
            gpu.name = prop->name;
            gpu.major = prop->major;
            gpu.minor = prop->minor;
            gpu.multiprocessors = prop->multiProcessorCount;
            gpu.total_memory = prop->totalGlobalMem;
            gpu.max_threads_per_block = prop->maxThreadsPerBlock;
            gpu.warp_size = prop->warpSize;
            const c10::cuda::CUDAGuard guard(static_cast<c10::DeviceIndex>(i));
            std::size_t free_bytes = 0;
            std::size_t total_bytes = 0;
            if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
                gpu.free_memory = free_bytes;
            }
            report.gpus.push_back(std::move(gpu));
        } catch (const std::exception& e) {
            report.notes.emplace_back("GPU " + std::to_string(i) +
                                      " could not be queried: " + e.what());
        }
    }
}

void cuda_make_current(int index) {
    // force = true: call cudaSetDevice even when c10 believes `index` is already current. Since
    // CUDA 12, cudaSetDevice also creates the primary context and makes it current here.
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(index), /*force=*/true);
}

MemoryStats cuda_memory_stats(int index) {
    const auto device = static_cast<c10::DeviceIndex>(index);
    // The allocator's statistics exist only once CUDA is initialised on this device.
    at::globalContext().lazyInitDevice(c10::DeviceType::CUDA);
    const c10::cuda::CUDAGuard guard(device);
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device);
    MemoryStats out;
    out.applicable = true;
    out.allocated = static_cast<std::uint64_t>(stats.allocated_bytes[0].current);
    out.reserved = static_cast<std::uint64_t>(stats.reserved_bytes[0].current);
    out.peak_allocated = static_cast<std::uint64_t>(stats.allocated_bytes[0].peak);
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    C10_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    out.free = free_bytes;
    out.total = total_bytes;
    return out;
}

void cuda_reset_peak(int index) {
    at::globalContext().lazyInitDevice(c10::DeviceType::CUDA);
    c10::cuda::CUDACachingAllocator::resetPeakStats(static_cast<c10::DeviceIndex>(index));
}

void cuda_empty_cache() {
    at::globalContext().lazyInitDevice(c10::DeviceType::CUDA);
    // No device guard: emptyCache() walks every device's allocator, whichever GPU is current.
    c10::cuda::CUDACachingAllocator::emptyCache();
}

std::unique_ptr<CudaEvents, CudaEventsDeleter> make_cuda_events(int index) {
    std::unique_ptr<CudaEvents, CudaEventsDeleter> events(new CudaEvents());
    events->device = static_cast<c10::DeviceIndex>(index);
    return events;
}

void record_start(CudaEvents& events) {
    events.start.record(at::cuda::getCurrentCUDAStream(events.device));
}

double record_stop_ms(CudaEvents& events) {
    events.stop.record(at::cuda::getCurrentCUDAStream(events.device));
    events.stop.synchronize();
    return static_cast<double>(events.start.elapsed_time(events.stop));
}

}  // namespace torchlings::detail
