/// @file launch.h
/// @brief Host launchers of the CUDA kernels. Raw pointers, sizes and a stream: no LibTorch.
///
/// Only CUDA translation units include this header (it needs cuda_runtime_api.h). Each launcher
/// checks the launch and throws std::runtime_error naming the failing call, file and line.
#pragma once

#include "torchlings/kernels/steps.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace torchlings::kernels {

/// Launches saxpy_kernel: one thread per element, kBlockSize threads per block, on `stream`.
void launch_saxpy(float a, const float* x, const float* y, float* out, std::int64_t n,
                  cudaStream_t stream);

/// Floats of device scratch memory launch_sum needs for `n` elements at `step`.
std::int64_t sum_scratch_floats(std::int64_t n, SumStep step, int device);

/// Launches the sum of x[0..n) into `*out` (device memory) as step `step` does it, using
/// `scratch` (device memory, sum_scratch_floats() floats) for the blocks' partials. Step
/// kVectorised falls back to kWarpShuffle when x is not 16-byte aligned.
void launch_sum(const float* x, std::int64_t n, float* scratch, float* out, SumStep step,
                int device, cudaStream_t stream);

}  // namespace torchlings::kernels
