/// @file grid_stride.h
/// @brief Exercise grid_stride: the API the learner's file implements and the tests call.
///
/// Compiled by nvcc (as CUDA) when this build compiles CUDA kernels, by g++ otherwise: it
/// includes no LibTorch header.
#pragma once

#include <torchlings/kernels/host_device.h>

#include <cstdint>

#if defined(__CUDACC__) || TL_EXERCISE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace ex {

/// What thread `thread` of a grid of `num_threads` threads does for y += a * x: a grid-stride
/// loop over elements thread, thread + num_threads, ... below n, each updated exactly once by
/// exactly one thread, whatever the sizes of the grid and of n.
TL_HOST_DEVICE void axpy_grid_stride_body(std::int64_t thread, std::int64_t num_threads, float a,
                                          const float* x, float* y, std::int64_t n);

/// Blocks for a grid-stride kernel over n elements: one thread per element
/// (ceil(n / block_dim) blocks), but never more than the GPU runs at once
/// (sm_count * blocks_per_sm), and at least 1.
/// @throws std::invalid_argument if n < 0 or block_dim, sm_count or blocks_per_sm is < 1.
std::int64_t grid_stride_blocks(std::int64_t n, std::int64_t block_dim, std::int64_t sm_count,
                                std::int64_t blocks_per_sm);

#if defined(__CUDACC__) || TL_EXERCISE_CUDA
/// Launches axpy_kernel with `blocks` blocks of 256 threads on `stream` (given).
void launch_axpy(float a, const float* x, float* y, std::int64_t n, std::int64_t blocks,
                 cudaStream_t stream);
#endif

}  // namespace ex
