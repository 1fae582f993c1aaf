/// @file kernels.h
/// @brief The course's own kernels: tensor-level entry points and their CPU twins.
///
/// Each kernel comes as a trio (see kernels/bodies.h for the shared per-thread body):
///   - `saxpy_kernel` (device, in src/cuda/kernels.cu), launched by `launch_saxpy`;
///   - `saxpy_cpu`, the CPU twin running the same body;
///   - `saxpy`, the tensor-level entry point that checks its arguments and dispatches.
#pragma once

#include "torchlings/kernels/bodies.h"

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace torchlings {

/// out = a * x + y for float32 tensors of one shape on one device (CPU, or CUDA when the kernels
/// were compiled). Non-contiguous inputs are rejected rather than silently copied.
/// @throws c10::Error naming what was expected and what was got.
at::Tensor saxpy(float a, const at::Tensor& x, const at::Tensor& y);

/// The sum of every element of a contiguous float32 tensor, as a 0-dim float32 tensor on x's
/// device. Accumulates in float32, like the GPU version (compare with a tolerance).
/// @throws c10::Error for another dtype, a non-contiguous tensor or an unsupported device.
at::Tensor sum(const at::Tensor& x);

/// Whether this build compiled the CUDA kernels (nvcc and a CUDA LibTorch were found).
bool cuda_kernels_compiled();

namespace kernels {

/// CPU twin of saxpy_kernel: runs saxpy_body for every i in [0, n), split across ATen's threads.
void saxpy_cpu(float a, const float* x, const float* y, float* out, std::int64_t n);

/// CPU twin of the sum kernel with an explicit virtual grid: runs sum_partial_body for thread ids
/// 0..num_threads-1 over the whole array and adds the partials, exactly as the GPU's threads do.
/// Slow for large grids (each virtual thread strides through memory); used to test indexing.
/// @throws std::invalid_argument if num_threads < 1.
float sum_cpu_grid(const float* x, std::int64_t n, std::int64_t num_threads);

/// Fast CPU twin of the sum kernel: each ATen thread takes a contiguous slice and runs the same
/// body as a grid of one thread over it; the slices' partials are then added.
float sum_cpu(const float* x, std::int64_t n);

/// Blocks of the first sum pass for n elements (capped: each thread loops, grid-stride).
std::int64_t sum_grid_blocks(std::int64_t n);

}  // namespace kernels
}  // namespace torchlings
