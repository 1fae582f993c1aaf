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
    cudaRuntimeGetVersion(&report.cuda_runtime_version);  // the cudart this process loaded
    if (cudaDriverGetVersion(&report.cuda_driver_version) != cudaSuccess) {
        report.cuda_driver_version = 0;
    }
    if (report.cuda_driver_version == 0) {
        report.notes.emplace_back(
            "No NVIDIA driver was found, so CUDA is unavailable. This LibTorch has CUDA; on a "
            "machine "
            "with an NVIDIA GPU, install its driver (nvidia-smi should list the GPU).");
    } else if (report.cuda_device_count == 0) {
        report.notes.emplace_back(
            "A driver is installed but no GPU is visible: check nvidia-smi and "
            "CUDA_VISIBLE_DEVICES.");
    } else if (report.cuda_driver_version < report.cuda_runtime_version) {
        report.notes.emplace_back(
            "The driver supports CUDA " + format_cuda_version(report.cuda_driver_version) +
            ", older than the runtime's " + format_cuda_version(report.cuda_runtime_version) +
            ": kernels may fail to load. Update the driver.");
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

void cuda_empty_cache(int index) {
    at::globalContext().lazyInitDevice(c10::DeviceType::CUDA);
    const c10::cuda::CUDAGuard guard(static_cast<c10::DeviceIndex>(index));
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
