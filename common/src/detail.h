/// @file detail.h
/// @brief Internal seam between host code that builds everywhere and the CUDA-only parts.
///
/// cuda_host.cpp defines these with CUDA (it includes CUDA headers); no_cuda.cpp defines them for
/// a LibTorch without CUDA. Same for the kernel dispatch (kernels/on_cuda.cpp /
/// kernels/no_cuda.cpp).
#pragma once

#include "torchlings/device.h"
#include "torchlings/kernels/steps.h"
#include "torchlings/timer.h"

#include <ATen/core/Tensor.h>

namespace torchlings::detail {

/// Adds the CUDA part (versions, GPUs, notes) to a report. Never throws.
void fill_cuda_report(MachineReport& report);
/// Selects CUDA device `index` (already checked to exist) in this thread and makes its primary
/// context current.
void cuda_make_current(int index);
/// Allocator statistics of CUDA device `index` (already checked to exist).
MemoryStats cuda_memory_stats(int index);
/// Resets the allocator's peak for CUDA device `index`.
void cuda_reset_peak(int index);
/// Empties the allocator's cache on every CUDA device.
void cuda_empty_cache();
/// Creates a start/stop event pair on CUDA device `index`, enabled for timing.
std::unique_ptr<CudaEvents, CudaEventsDeleter> make_cuda_events(int index);
/// Records the start event on the current stream.
void record_start(CudaEvents& events);
/// Records the stop event, waits for it and returns the elapsed milliseconds.
double record_stop_ms(CudaEvents& events);

/// CUDA side of saxpy(); arguments already checked.
at::Tensor saxpy_cuda(float a, const at::Tensor& x, const at::Tensor& y);
/// CUDA side of sum(); argument already checked.
at::Tensor sum_cuda(const at::Tensor& x, kernels::SumStep step);

}  // namespace torchlings::detail
