/// @file tree_reduce.h
/// @brief Exercise tree_reduce: the API the learner's file implements and the tests call.
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

/// One step of a block's shared-memory tree: thread `tid` adds into its own slot the value
/// `stride` slots above it, if it is one of the first `stride` threads. Run with stride =
/// block_dim / 2, block_dim / 4, ..., 1 and a barrier between steps, slot 0 ends with the total.
TL_HOST_DEVICE void tree_step(int tid, int stride, float* shared);

/// The CPU twin of the block's reduction: runs tree_step for every thread of a block of
/// `block_dim` threads, stride by stride as the GPU does, and returns shared[0].
/// @throws std::invalid_argument unless block_dim is a power of two >= 1 (naming it).
float block_sum_twin(float* shared, int block_dim);

#if defined(__CUDACC__) || TL_EXERCISE_CUDA
/// Launches block_sum_kernel on `stream` (given): blocks of 256 threads, each loads one element
/// (0 past n), reduces with tree_step and writes its block's sum to block_sums[blockIdx.x].
/// block_sums holds ceil(n / 256) floats.
void launch_block_sums(const float* x, float* block_sums, std::int64_t n, cudaStream_t stream);
#endif

}  // namespace ex
