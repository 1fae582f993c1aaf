/// @file sum.h
/// @brief The per-thread bodies of the sum reduction, one per step of making it fast. The
/// kernels that use them are in src/kernels/sum.cu, the CPU twins in src/kernels/sum.cpp.
///
/// Every step splits the work the same way: thread t of T first sums its own share of x (a
/// grid-stride loop, so any grid covers any n), then the threads' partials are combined. The
/// steps differ in how they load (one float, or four at once) and how they combine (atomics,
/// a shared-memory tree, warp shuffles); the loading bodies and the tree step are here, shared
/// with the CPU, the shuffles exist only on the GPU.
#pragma once

#include "torchlings/kernels/host_device.h"
#include "torchlings/kernels/steps.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace torchlings::kernels {

/// Steps 1 to 3: thread `thread` of `num_threads` sums x[thread], x[thread + num_threads], ...
/// Adjacent threads read adjacent floats, so each warp load is one coalesced 128-byte request;
/// but a thread has only one load in flight per iteration.
///
/// `Value` is float on the GPU. The CPU twin passes CpuLanes, sixteen floats side by side: one
/// call then runs sixteen virtual threads in the lanes of the CPU's vector registers, the way a
/// warp runs 32 threads in lockstep, and lane k of group i is thread 16 * thread + k of a grid
/// sixteen times larger, adding exactly the floats that thread adds, in the same order.
template <typename Value>
TL_HOST_DEVICE inline Value sum_grid_stride_body(std::int64_t thread, std::int64_t num_threads,
                                                 const Value* x, std::int64_t n) {
    Value total{};
    for (std::int64_t i = thread; i < n; i += num_threads) {
        total += x[i];
    }
    return total;
}

/// Floats in one CpuLanes.
inline constexpr int kCpuLanes = 16;

/// Sixteen floats side by side, added lane by lane: at -O3 the loop becomes AVX-512, AVX2 or SSE
/// instructions, whichever the CPU has. May alias a float array (the twin views x through it).
struct __attribute__((may_alias)) CpuLanes {
    float lane[kCpuLanes];  ///< lane k: virtual thread k of the sixteen

    /// Adds `other` lane by lane.
    TL_HOST_DEVICE CpuLanes& operator+=(const CpuLanes& other) {
        for (int k = 0; k < kCpuLanes; ++k) {
            lane[k] += other.lane[k];
        }
        return *this;
    }
};

/// Shared-memory tree, one step: thread `tid` adds the value `stride` slots above its own.
/// Called with stride = blockDim / 2, blockDim / 4, ..., 1 and a barrier between steps; the
/// halves never overlap, so no two threads write one slot. Needs a power-of-two block.
TL_HOST_DEVICE inline void tree_step_body(int tid, int stride, float* shared) {
    if (tid < stride) {
        shared[tid] += shared[tid + stride];
    }
}

/// Four floats loaded as one: a single 16-byte load instruction on the GPU.
struct alignas(16) Vec4 {
    float v[4];  ///< the four floats, in memory order
};

/// Loads x[0..3]. On the GPU `x` must be 16-byte aligned (the launcher checks it).
TL_HOST_DEVICE inline Vec4 load_vec4(const float* x) {
#if defined(__CUDA_ARCH__)
    return *reinterpret_cast<const Vec4*>(x);  // LDG.128: one instruction, four floats
#else
    return Vec4{{x[0], x[1], x[2], x[3]}};  // the compiler's vectoriser does the rest
#endif
}

/// Independent float4 loads each thread keeps in flight per iteration of step 4.
inline constexpr int kSumUnroll = 4;

/// Step 4: thread `thread` of `num_threads` sums groups of four floats, kSumUnroll groups per
/// iteration (16 floats in flight), grid-stride over groups so that a warp's loads stay
/// contiguous (32 threads x 16 bytes = 512 bytes per instruction). The n % 4 tail belongs to
/// thread 0. Sixteen independent accumulators also help the CPU: they are its SIMD lanes.
TL_HOST_DEVICE inline float sum_vectorised_body(std::int64_t thread, std::int64_t num_threads,
                                                const float* x, std::int64_t n) {
    Vec4 acc[kSumUnroll] = {};
    const std::int64_t groups = n / 4;
    std::int64_t g = thread;
    for (; g + (kSumUnroll - 1) * num_threads < groups; g += kSumUnroll * num_threads) {
        for (int u = 0; u < kSumUnroll; ++u) {
            const Vec4 v = load_vec4(x + 4 * (g + u * num_threads));
            for (int k = 0; k < 4; ++k) {
                acc[u].v[k] += v.v[k];
            }
        }
    }
    for (; g < groups; g += num_threads) {  // fewer than kSumUnroll groups left for this thread
        const Vec4 v = load_vec4(x + 4 * g);
        for (int k = 0; k < 4; ++k) {
            acc[0].v[k] += v.v[k];
        }
    }
    if (thread == 0) {
        for (std::int64_t i = groups * 4; i < n; ++i) {
            acc[0].v[0] += x[i];
        }
    }
    float total = 0.0F;
    for (int u = 0; u < kSumUnroll; ++u) {
        for (int k = 0; k < 4; ++k) {
            total += acc[u].v[k];
        }
    }
    return total;
}

/// Blocks of the first pass of `step` for n elements (at least 1). Steps 1 to 3: one thread per
/// element up to 1024 blocks, then each thread loops. Step 4: enough blocks to give each thread
/// kSumUnroll float4 groups, but no more than the GPU runs at once (sm_count * blocks_per_sm):
/// more would only add partials to combine, fewer would leave SMs idle.
/// @throws std::invalid_argument if sm_count or blocks_per_sm is < 1.
inline std::int64_t sum_grid_blocks(std::int64_t n, SumStep step, int sm_count, int blocks_per_sm) {
    if (sm_count < 1 || blocks_per_sm < 1) {
        throw std::invalid_argument(
            "sum_grid_blocks: expected sm_count >= 1 and blocks_per_sm >= 1, got " +
            std::to_string(sm_count) + " and " + std::to_string(blocks_per_sm));
    }
    if (step != SumStep::kVectorised) {
        constexpr std::int64_t kMaxBlocks = 1024;  // beyond this, each thread loops
        return std::clamp<std::int64_t>(blocks_for(n, kBlockSize), 1, kMaxBlocks);
    }
    const std::int64_t per_block = std::int64_t{kBlockSize} * kSumUnroll * 4;
    const std::int64_t resident = std::int64_t{sm_count} * blocks_per_sm;
    return std::clamp<std::int64_t>(blocks_for(n, per_block), 1, resident);
}

}  // namespace torchlings::kernels
