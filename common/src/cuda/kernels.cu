/// @file kernels.cu
/// @brief CUDA kernels of the course and their launchers. No LibTorch header here: pointers,
/// sizes and a stream come in; errors go out as exceptions (TL_CUDA_CHECK).
#include "torchlings/cuda_check.h"
#include "torchlings/kernels/bodies.h"
#include "torchlings/kernels/launch.h"

namespace torchlings::kernels {

/// One thread per element; the body carries the bounds guard.
__global__ void saxpy_kernel(float a, const float* __restrict__ x, const float* __restrict__ y,
                             float* __restrict__ out, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    saxpy_body(i, a, x, y, out, n);
}

/// Adds the kBlockSize values of `shared` (one per thread) into shared[0]: a tree in shared memory.
__device__ void block_reduce(float* shared) {
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) {
            shared[threadIdx.x] += shared[threadIdx.x + stride];
        }
        __syncthreads();
    }
}

/// Pass 1: every thread runs the shared body over the whole grid; each block writes one partial.
__global__ void sum_partials_kernel(const float* __restrict__ x, std::int64_t n,
                                    float* __restrict__ partials) {
    __shared__ float shared[kBlockSize];
    const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t num_threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    shared[threadIdx.x] = sum_partial_body(thread, num_threads, x, n);
    __syncthreads();
    block_reduce(shared);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = shared[0];
    }
}

/// Pass 2: one block adds the partials (the same body, over the partials array).
__global__ void sum_final_kernel(const float* __restrict__ partials, std::int64_t count,
                                 float* __restrict__ out) {
    __shared__ float shared[kBlockSize];
    shared[threadIdx.x] = sum_partial_body(threadIdx.x, blockDim.x, partials, count);
    __syncthreads();
    block_reduce(shared);
    if (threadIdx.x == 0) {
        *out = shared[0];
    }
}

void launch_saxpy(float a, const float* x, const float* y, float* out, std::int64_t n,
                  cudaStream_t stream) {
    if (n == 0) {
        return;  // a zero-block grid is a launch error
    }
    const auto blocks = static_cast<unsigned>((n + kBlockSize - 1) / kBlockSize);
    saxpy_kernel<<<blocks, kBlockSize, 0, stream>>>(a, x, y, out, n);
    TL_CUDA_CHECK_LAUNCH();
}

void launch_sum(const float* x, std::int64_t n, float* partials, std::int64_t blocks, float* out,
                cudaStream_t stream) {
    sum_partials_kernel<<<static_cast<unsigned>(blocks), kBlockSize, 0, stream>>>(x, n, partials);
    TL_CUDA_CHECK_LAUNCH();
    sum_final_kernel<<<1, kBlockSize, 0, stream>>>(partials, blocks, out);
    TL_CUDA_CHECK_LAUNCH();
}

}  // namespace torchlings::kernels
