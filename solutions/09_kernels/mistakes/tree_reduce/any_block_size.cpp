// Mistake: block_sum_twin accepts a block that is not a power of two
// Halving 6 gives 3, then 1: slot 4 is never added, silently. The test expects
// std::invalid_argument for 3, 6 and 100.
/// @file tree_reduce.cpp
/// @brief Solution of tree_reduce (lesson 09).
#include "tree_reduce.h"

#include <stdexcept>
#include <string>

namespace ex {

TL_HOST_DEVICE void tree_step(int tid, int stride, float* shared) {
    // Only the lower `stride` threads work: each reads a slot no other thread writes this step.
    if (tid < stride) {
        shared[tid] += shared[tid + stride];
    }
}

float block_sum_twin(float* shared, int block_dim) {
    if (block_dim < 1) {
        throw std::invalid_argument("block_sum_twin: expected a power-of-two block_dim >= 1, got " +
                                    std::to_string(block_dim));
    }
    // Where the GPU runs a step's threads at once and then meets at __syncthreads(), the twin
    // runs them one after another: the same result, because within a step they never share a
    // slot.
    for (int stride = block_dim / 2; stride > 0; stride /= 2) {
        for (int tid = 0; tid < block_dim; ++tid) {
            tree_step(tid, stride, shared);
        }
    }
    return shared[0];
}

#if defined(__CUDACC__)
namespace {

constexpr int kBlock = 256;

__global__ void block_sum_kernel(const float* x, float* block_sums, std::int64_t n) {
    __shared__ float shared[kBlock];
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int tid = static_cast<int>(threadIdx.x);
    shared[tid] = i < n ? x[i] : 0.0F;
    __syncthreads();
    for (int stride = kBlock / 2; stride > 0; stride /= 2) {
        tree_step(tid, stride, shared);
        __syncthreads();  // every thread, every step: a barrier inside an if would hang
    }
    if (tid == 0) {
        block_sums[blockIdx.x] = shared[0];
    }
}

}  // namespace

void launch_block_sums(const float* x, float* block_sums, std::int64_t n, cudaStream_t stream) {
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
    if (blocks == 0) {
        return;
    }
    block_sum_kernel<<<static_cast<unsigned>(blocks), kBlock, 0, stream>>>(x, block_sums, n);
    const cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        throw std::runtime_error(std::string("launch_block_sums: ") + cudaGetErrorString(status));
    }
}
#endif

}  // namespace ex
