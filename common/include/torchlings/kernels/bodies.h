/// @file bodies.h
/// @brief The per-thread bodies of the course's kernels, shared by the GPU and the CPU.
///
/// Each body is what ONE CUDA thread does. The CUDA kernel calls it once per thread; the CPU twin
/// calls the very same function in a loop over (virtual) thread ids. The indexing logic — bounds
/// guards, grid-stride loops, tails — is therefore tested on any machine, GPU or not.
/// This header includes no LibTorch and no CUDA header, so nvcc and g++ both compile it.
#pragma once

#include <cstdint>

/// Marks a function compiled for both the host and the device (empty outside nvcc).
#if defined(__CUDACC__)
#define TL_HOST_DEVICE __host__ __device__
#else
#define TL_HOST_DEVICE
#endif

namespace torchlings::kernels {

/// Threads per block of the CUDA launches (a multiple of the warp size, 32).
inline constexpr int kBlockSize = 256;

/// SAXPY, out[i] = a * x[i] + y[i], for thread `i` of a grid that may be larger than `n`.
/// Napkin math: reads 2n floats and writes n, 12 bytes per element; at 3 TB/s (H100 HBM3) 1M
/// elements take about 4 us, so SAXPY measures memory bandwidth, not arithmetic.
TL_HOST_DEVICE inline void saxpy_body(std::int64_t i, float a, const float* x, const float* y,
                                      float* out, std::int64_t n) {
    if (i < n) {  // the bounds guard: the last block usually has threads past the end
        out[i] = a * x[i] + y[i];
    }
}

/// How many contiguous elements one thread sums per step of the grid-stride loop: 32 floats are
/// one 128-byte cache line, read as eight 16-byte loads on the GPU, and four independent AVX
/// accumulators on the CPU (enough to hide the latency of a floating-point add).
inline constexpr std::int64_t kSumChunk = 32;

/// Thread `thread` of `num_threads` sums chunks thread, thread + num_threads, ... of `x` (each
/// chunk kSumChunk contiguous elements; the last may be short) and returns its partial sum.
/// Adjacent threads read adjacent chunks, so a GPU warp's loads are coalesced; with one thread
/// the loop walks memory in order, which is what a CPU core wants.
TL_HOST_DEVICE inline float sum_partial_body(std::int64_t thread, std::int64_t num_threads,
                                             const float* x, std::int64_t n) {
    float lanes[kSumChunk] = {};  // independent accumulators: vectorisable, less rounding error
    const std::int64_t full_chunks = n / kSumChunk;
    for (std::int64_t c = thread; c < full_chunks; c += num_threads) {
        const float* chunk = x + c * kSumChunk;
        for (std::int64_t k = 0; k < kSumChunk; ++k) {
            lanes[k] += chunk[k];
        }
    }
    // The tail (n % kSumChunk elements) belongs to the thread whose turn the next chunk would be.
    if (full_chunks % num_threads == thread) {
        for (std::int64_t i = full_chunks * kSumChunk; i < n; ++i) {
            lanes[0] += x[i];
        }
    }
    float total = 0.0F;
    for (std::int64_t k = 0; k < kSumChunk; ++k) {
        total += lanes[k];
    }
    return total;
}

}  // namespace torchlings::kernels
