/// @file sum.cu
/// @brief The sum on the GPU, in the four steps of lesson 09, and its launcher. The per-thread
/// bodies are in include/torchlings/kernels/sum.h, the CPU twins in sum.cpp.
///
/// Napkin math: the sum reads 4 bytes per element and writes nothing worth counting, so at
/// 3 TB/s 2^26 floats (256 MiB) take about 90 us; everything but the loads must hide behind them.
#include "torchlings/cuda_check.h"
#include "torchlings/kernels/launch.h"
#include "torchlings/kernels/sum.h"

#include <array>
#include <cstdint>
#include <mutex>

namespace torchlings::kernels {
namespace {

constexpr unsigned kFullMask = 0xffffffffU;

/// The sum of `v` over the 32 lanes of a warp, in lane 0: five shuffles, no memory, no barrier.
__device__ float warp_sum(float v) {
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
        v += __shfl_down_sync(kFullMask, v, offset);
    }
    return v;
}

/// Step 2: the block's values in shared memory, halved by tree_step_body log2(256) = 8 times,
/// with a barrier after each halving. The total is valid in thread 0.
__device__ float block_sum_tree(float v) {
    __shared__ float shared[kBlockSize];
    shared[threadIdx.x] = v;
    __syncthreads();
    for (int stride = kBlockSize / 2; stride > 0; stride /= 2) {
        tree_step_body(static_cast<int>(threadIdx.x), stride, shared);
        __syncthreads();
    }
    return shared[0];
}

/// Step 3: each warp reduces in registers; its lane 0 leaves one value in shared memory; the
/// first warp reduces those 8. One barrier instead of eight. The total is valid in thread 0.
__device__ float block_sum_shuffle(float v) {
    __shared__ float warp_totals[kBlockSize / kWarpSize];
    const unsigned lane = threadIdx.x % kWarpSize;
    const unsigned warp = threadIdx.x / kWarpSize;
    v = warp_sum(v);
    if (lane == 0) {
        warp_totals[warp] = v;
    }
    __syncthreads();
    if (warp == 0) {
        v = lane < kBlockSize / kWarpSize ? warp_totals[lane] : 0.0F;
        v = warp_sum(v);
    }
    return v;
}

/// Step 1: every thread sums its grid-stride share, then adds it into *out atomically.
/// Simple and correct, but every thread's atomic lands on one address: they serialise.
__global__ void __launch_bounds__(kBlockSize)
    sum_atomics_kernel(const float* __restrict__ x, std::int64_t n, float* __restrict__ out) {
    const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t num_threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    atomicAdd(out, sum_grid_stride_body(thread, num_threads, x, n));
}

/// Steps 2 to 4, first pass: each thread's share, combined per block; one partial per block.
template <SumStep Step>
__global__ void __launch_bounds__(kBlockSize)
    sum_partials_kernel(const float* __restrict__ x, std::int64_t n, float* __restrict__ partials) {
    const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t num_threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    float v = Step == SumStep::kVectorised ? sum_vectorised_body(thread, num_threads, x, n)
                                           : sum_grid_stride_body(thread, num_threads, x, n);
    v = Step == SumStep::kSharedTree ? block_sum_tree(v) : block_sum_shuffle(v);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
    }
}

/// Steps 2 to 4, second pass: one block adds the partials with the same combination.
template <SumStep Step>
__global__ void __launch_bounds__(kBlockSize)
    sum_final_kernel(const float* __restrict__ partials, std::int64_t count,
                     float* __restrict__ out) {
    float v = sum_grid_stride_body(threadIdx.x, blockDim.x, partials, count);
    v = Step == SumStep::kSharedTree ? block_sum_tree(v) : block_sum_shuffle(v);
    if (threadIdx.x == 0) {
        *out = v;
    }
}

/// SM count and resident blocks of step 4's kernel on `device`, asked once per device.
struct Occupancy {
    int sm_count = 0;
    int blocks_per_sm = 0;
};

Occupancy occupancy(int device) {
    static std::mutex mutex;
    static std::array<Occupancy, 64> cache{};
    const std::lock_guard<std::mutex> lock(mutex);
    Occupancy& entry = cache.at(static_cast<std::size_t>(device));
    if (entry.sm_count == 0) {
        TL_CUDA_CHECK(
            cudaDeviceGetAttribute(&entry.sm_count, cudaDevAttrMultiProcessorCount, device));
        TL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &entry.blocks_per_sm, sum_partials_kernel<SumStep::kVectorised>, kBlockSize, 0));
    }
    return entry;
}

std::int64_t first_pass_blocks(std::int64_t n, SumStep step, int device) {
    if (step != SumStep::kVectorised) {
        return sum_grid_blocks(n, step, 1, 1);  // steps 1 to 3 do not depend on the GPU
    }
    const Occupancy o = occupancy(device);
    return sum_grid_blocks(n, step, o.sm_count, o.blocks_per_sm);
}

template <SumStep Step>
void launch_two_passes(const float* x, std::int64_t n, float* scratch, std::int64_t blocks,
                       float* out, cudaStream_t stream) {
    sum_partials_kernel<Step>
        <<<static_cast<unsigned>(blocks), kBlockSize, 0, stream>>>(x, n, scratch);
    TL_CUDA_CHECK_LAUNCH();
    sum_final_kernel<Step><<<1, kBlockSize, 0, stream>>>(scratch, blocks, out);
    TL_CUDA_CHECK_LAUNCH();
}

}  // namespace

std::int64_t sum_scratch_floats(std::int64_t n, SumStep step, int device) {
    if (step == SumStep::kAtomics) {
        return 0;
    }
    // Step 4 falls back to step 3 for a misaligned x: room for either grid.
    const std::int64_t fallback = first_pass_blocks(n, SumStep::kWarpShuffle, device);
    return step == SumStep::kVectorised ? std::max(fallback, first_pass_blocks(n, step, device))
                                        : fallback;
}

void launch_sum(const float* x, std::int64_t n, float* scratch, float* out, SumStep step,
                int device, cudaStream_t stream) {
    if (step == SumStep::kVectorised && reinterpret_cast<std::uintptr_t>(x) % alignof(Vec4) != 0) {
        step = SumStep::kWarpShuffle;  // a view at an odd offset: 16-byte loads would fault
    }
    const std::int64_t blocks = first_pass_blocks(n, step, device);
    switch (step) {
        case SumStep::kAtomics:
            TL_CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), stream));
            sum_atomics_kernel<<<static_cast<unsigned>(blocks), kBlockSize, 0, stream>>>(x, n, out);
            TL_CUDA_CHECK_LAUNCH();
            return;
        case SumStep::kSharedTree:
            launch_two_passes<SumStep::kSharedTree>(x, n, scratch, blocks, out, stream);
            return;
        case SumStep::kWarpShuffle:
            launch_two_passes<SumStep::kWarpShuffle>(x, n, scratch, blocks, out, stream);
            return;
        case SumStep::kVectorised:
            launch_two_passes<SumStep::kVectorised>(x, n, scratch, blocks, out, stream);
            return;
    }
}

}  // namespace torchlings::kernels
