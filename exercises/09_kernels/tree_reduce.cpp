/// @file tree_reduce.cpp
/// @brief Exercise tree_reduce (lesson 09): a block's sum by a tree in shared memory.
///
/// The threads of a block share fast on-chip memory. Each step, the lower half of the active
/// threads adds the upper half onto itself; log2(block_dim) steps leave the block's total in slot
/// 0. On the GPU a __syncthreads() separates the steps; your CPU twin runs them in order.
/// Check it with: ./torchlings check tree_reduce      Stuck? ./torchlings hint tree_reduce
#include "tree_reduce.h"

#include <stdexcept>
#include <string>

namespace ex {

TL_HOST_DEVICE void tree_step(int tid, int stride, float* shared) {
    // TODO: if this thread is one of the first `stride`, add the slot `stride` above its own.
    (void)tid;
    (void)stride;
    (void)shared;
}

float block_sum_twin(float* shared, int block_dim) {
    // TODO: reject a block_dim that is not a power of two >= 1 (std::invalid_argument).
    // TODO: for stride = block_dim / 2 down to 1 (halving), run tree_step for every thread.
    (void)block_dim;
    return shared[0];
}

// Given: the kernel and its launch. Compiled only by nvcc (this file is CUDA when nvcc exists).
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
