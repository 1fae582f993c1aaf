/// @file vector_sum.h
/// @brief Exercise vector_sum: the API the learner's file implements and the tests call.
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

/// Four floats loaded at once: one 16-byte load instruction on the GPU (x must be 16-byte
/// aligned there), four ordinary loads on the CPU. Given.
struct alignas(16) Float4 {
    float v[4];
};

/// Loads x[0..3] as one Float4 (given, in the learner's file).
TL_HOST_DEVICE Float4 load4(const float* x);

/// Thread `thread` of a grid of `num_threads` threads: the sum of its share of x[0..n), read four
/// floats at a time. The n / 4 groups of four (x[4g .. 4g+3]) are shared out grid-stride:
/// thread t takes groups t, t + num_threads, ...; the n % 4 floats after the last group belong
/// to thread 0. Over all threads of the grid, every element is added exactly once.
TL_HOST_DEVICE float sum4_body(std::int64_t thread, std::int64_t num_threads, const float* x,
                               std::int64_t n);

#if defined(__CUDACC__) || TL_EXERCISE_CUDA
/// Launches sum4_kernel on `stream` with `blocks` blocks of 256 threads (given): each thread runs
/// sum4_body and adds its share into *out (device memory) atomically. Sets *out to 0 first.
/// @throws std::invalid_argument if x is not 16-byte aligned.
void launch_sum4(const float* x, std::int64_t n, float* out, std::int64_t blocks,
                 cudaStream_t stream);
#endif

}  // namespace ex
