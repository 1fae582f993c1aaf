/// @file thread_index.h
/// @brief Exercise thread_index: the API the learner's file implements and the tests call.
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

/// The element that thread `thread` of block `block` (blocks of `block_dim` threads) owns:
/// CUDA's blockIdx.x * blockDim.x + threadIdx.x, computed in 64 bits.
TL_HOST_DEVICE std::int64_t global_index(std::int64_t block, std::int64_t block_dim,
                                         std::int64_t thread);

/// Blocks of `block_dim` threads needed for one thread per element of n elements (0 for n = 0).
/// @throws std::invalid_argument if n < 0 or block_dim < 1, naming the value.
std::int64_t blocks_needed(std::int64_t n, std::int64_t block_dim);

/// What thread `i` of a one-thread-per-element grid does for ReLU: out[i] = max(x[i], 0) when
/// i < n; nothing otherwise (the grid is usually larger than n).
TL_HOST_DEVICE void relu_body(std::int64_t i, const float* x, float* out, std::int64_t n);

#if defined(__CUDACC__) || TL_EXERCISE_CUDA
/// Launches relu_kernel on `stream` with blocks_needed(n, 256) blocks of 256 threads (given).
void launch_relu(const float* x, float* out, std::int64_t n, cudaStream_t stream);
#endif

}  // namespace ex
