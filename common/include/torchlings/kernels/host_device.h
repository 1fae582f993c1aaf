/// @file host_device.h
/// @brief TL_HOST_DEVICE and the launch constants every course kernel shares.
///
/// A per-thread body marked TL_HOST_DEVICE is compiled twice by nvcc (for the GPU and the host)
/// and once by the C++ compiler (where the macro is empty), so the CPU twin runs the very code a
/// CUDA thread runs. This header includes no LibTorch and no CUDA header: nvcc and the C++
/// compiler both compile it.
#pragma once

#include <cstdint>

/// Marks a function compiled for both the host and the device (empty outside nvcc).
#if defined(__CUDACC__)
#define TL_HOST_DEVICE __host__ __device__
#else
#define TL_HOST_DEVICE
#endif

namespace torchlings::kernels {

/// Threads per block of the course's launches: a multiple of the warp size (32), large enough to
/// hide memory latency, small enough that several blocks fit on one SM.
inline constexpr int kBlockSize = 256;

/// Threads of a warp: the unit that executes in lockstep and exchanges registers by shuffles.
inline constexpr int kWarpSize = 32;

/// Blocks for one thread per element: the ceiling of n / block_size (0 for n = 0).
TL_HOST_DEVICE constexpr std::int64_t blocks_for(std::int64_t n, std::int64_t block_size) {
    return (n + block_size - 1) / block_size;
}

}  // namespace torchlings::kernels
