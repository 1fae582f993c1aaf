/// @file thread_index.cpp
/// @brief Exercise thread_index (lesson 09): map each CUDA thread to the element it owns.
///
/// A kernel runs one function on every thread of a grid of blocks. Each thread finds its element
/// from its block and thread numbers, and the last block usually has threads with nothing to do.
/// The functions marked TL_HOST_DEVICE run on the GPU when nvcc compiles this file, and in the
/// tests' CPU twin on any machine.
/// Check it with: ./torchlings check thread_index      Stuck? ./torchlings hint thread_index
#include "thread_index.h"

#include <stdexcept>
#include <string>

namespace ex {

TL_HOST_DEVICE std::int64_t global_index(std::int64_t block, std::int64_t block_dim,
                                         std::int64_t thread) {
    // TODO: return the global element index of this thread (in 64-bit arithmetic).
    (void)block;
    (void)block_dim;
    (void)thread;
    return -1;
}

std::int64_t blocks_needed(std::int64_t n, std::int64_t block_dim) {
    // TODO: reject n < 0 or block_dim < 1 with std::invalid_argument naming the values.
    // TODO: return how many blocks cover n elements, rounding up.
    (void)n;
    (void)block_dim;
    return 0;
}

TL_HOST_DEVICE void relu_body(std::int64_t i, const float* x, float* out, std::int64_t n) {
    // TODO: out[i] = max(x[i], 0), only for threads that own an element (i < n).
    (void)i;
    (void)x;
    (void)out;
    (void)n;
}

// Given: the kernel and its launch. Compiled only by nvcc (this file is CUDA when nvcc exists).
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
