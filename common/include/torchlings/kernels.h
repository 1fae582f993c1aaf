/// @file kernels.h
/// @brief The course's own kernels (lesson 09): tensor-level entry points and their CPU twins.
///
/// Each kernel lives in one place, src/kernels/, as a trio named after it:
///   - its per-thread body, `__host__ __device__`, in `include/torchlings/kernels/<name>.h`;
///   - the CUDA kernel and its launcher in `src/kernels/<name>.cu` (`saxpy_kernel`,
///     `launch_saxpy`);
///   - the CPU twin that runs the same body, and the tensor-level entry point that checks its
///     arguments and dispatches, in `src/kernels/<name>.cpp` (`saxpy_cpu`, `saxpy`).
/// src/kernels/on_cuda.cpp holds the CUDA side of the dispatch (device guard, current stream).
#pragma once

#include "torchlings/kernels/host_device.h"
#include "torchlings/kernels/saxpy.h"
#include "torchlings/kernels/steps.h"
#include "torchlings/kernels/sum.h"

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace torchlings {

/// out = a * x + y for float32 tensors of one shape on one device (CPU, or CUDA when the kernels
/// were compiled). Non-contiguous inputs are rejected rather than silently copied.
/// @throws c10::Error naming what was expected and what was got.
at::Tensor saxpy(float a, const at::Tensor& x, const at::Tensor& y);

/// The sum of every element of a contiguous float32 tensor, as a 0-dim float32 tensor on x's
/// device, computed the way `step` does it (default: the fastest). On the CPU the step's loading
/// body runs in the CPU twin. Accumulates in float32: compare with a tolerance.
/// @throws c10::Error for another dtype, a non-contiguous tensor or an unsupported device.
at::Tensor sum(const at::Tensor& x, kernels::SumStep step = kernels::SumStep::kVectorised);

/// Whether this build compiled the CUDA kernels (nvcc and a CUDA LibTorch were found).
bool cuda_kernels_compiled();

namespace kernels {

/// CPU twin of saxpy_kernel: runs saxpy_body for every i in [0, n), split across ATen's threads.
void saxpy_cpu(float a, const float* x, const float* y, float* out, std::int64_t n);

/// CPU twin of the sum with an explicit virtual grid: runs the loading body of `step` for thread
/// ids 0..num_threads-1 over the whole array and adds the partials, as the GPU's threads do.
/// Slow for large grids (each virtual thread strides through memory); used to test indexing.
/// @throws std::invalid_argument if num_threads < 1.
float sum_cpu_grid(const float* x, std::int64_t n, std::int64_t num_threads, SumStep step);

/// Fast CPU twin of the sum: each ATen thread takes a contiguous slice and runs the loading body
/// of `step` as a grid of one thread over it; the slices' partials are then added.
float sum_cpu(const float* x, std::int64_t n, SumStep step = SumStep::kVectorised);

/// CPU twin of the block's shared-memory tree: runs tree_step_body for every thread of a block
/// of `block` threads, stride by stride, and returns shared[0], the block's total.
/// @throws std::invalid_argument unless block is a power of two >= 1.
float tree_reduce_cpu(float* shared, int block);

}  // namespace kernels
}  // namespace torchlings
