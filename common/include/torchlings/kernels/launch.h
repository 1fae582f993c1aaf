/// @file launch.h
/// @brief Host launchers of the CUDA kernels. Raw pointers, sizes and a stream: no LibTorch.
///
/// Only CUDA translation units include this header (it needs cuda_runtime_api.h). Each launcher
/// checks the launch and throws std::runtime_error naming the failing call, file and line.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace torchlings::kernels {

/// Launches saxpy_kernel: one thread per element, kBlockSize threads per block, on `stream`.
void launch_saxpy(float a, const float* x, const float* y, float* out, std::int64_t n,
                  cudaStream_t stream);

/// Launches the two-pass sum: `blocks` blocks write one partial each into `partials` (device
/// memory, `blocks` floats), then one block adds the partials into `*out` (device memory).
void launch_sum(const float* x, std::int64_t n, float* partials, std::int64_t blocks, float* out,
                cudaStream_t stream);

}  // namespace torchlings::kernels
