// Mistake: relu_body writes without checking i < n
// The last block's extra threads write past the end of out (on a GPU: a silent overwrite or
// an illegal address). The CPU twin's poisoned slots after n are overwritten: the test fails.
/// @file thread_index.cpp
/// @brief Solution of thread_index (lesson 09).
#include "thread_index.h"

#include <stdexcept>
#include <string>

namespace ex {

TL_HOST_DEVICE std::int64_t global_index(std::int64_t block, std::int64_t block_dim,
                                         std::int64_t thread) {
    // In 64 bits: blockIdx.x * blockDim.x is unsigned 32-bit and wraps past 2^32 elements.
    return block * block_dim + thread;
}

std::int64_t blocks_needed(std::int64_t n, std::int64_t block_dim) {
    if (n < 0 || block_dim < 1) {
        throw std::invalid_argument(
            "blocks_needed: expected n >= 0 and block_dim >= 1, got n = " + std::to_string(n) +
            ", block_dim = " + std::to_string(block_dim));
    }
    // Round up: the last, partial block still needs its threads.
    return (n + block_dim - 1) / block_dim;
}

TL_HOST_DEVICE void relu_body(std::int64_t i, const float* x, float* out, std::int64_t n) {
    // The guard: threads of the last block past n must not touch memory.
    out[i] = x[i] > 0.0F ? x[i] : 0.0F;
}

#if defined(__CUDACC__)
namespace {

constexpr int kBlock = 256;

__global__ void relu_kernel(const float* x, float* out, std::int64_t n) {
    relu_body(global_index(blockIdx.x, blockDim.x, threadIdx.x), x, out, n);
}

}  // namespace

void launch_relu(const float* x, float* out, std::int64_t n, cudaStream_t stream) {
    const std::int64_t blocks = blocks_needed(n, kBlock);
    if (blocks == 0) {
        return;  // a grid of zero blocks is a launch error
    }
    relu_kernel<<<static_cast<unsigned>(blocks), kBlock, 0, stream>>>(x, out, n);
    const cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        throw std::runtime_error(std::string("launch_relu: ") + cudaGetErrorString(status));
    }
}
#endif

}  // namespace ex
