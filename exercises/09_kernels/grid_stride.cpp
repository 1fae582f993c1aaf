/// @file grid_stride.cpp
/// @brief Exercise grid_stride (lesson 09): a grid-stride loop, and a grid sized from the GPU.
///
/// With one thread per element the grid grows with n. A grid-stride loop decouples them: each
/// thread handles every num_threads-th element, so a grid that just fills the GPU covers any n.
/// Check it with: ./torchlings check grid_stride      Stuck? ./torchlings hint grid_stride
#include "grid_stride.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ex {

TL_HOST_DEVICE void axpy_grid_stride_body(std::int64_t thread, std::int64_t num_threads, float a,
                                          const float* x, float* y, std::int64_t n) {
    // TODO: loop over this thread's elements (start at `thread`, step by the whole grid) and
    // TODO: do y[i] += a * x[i] for each of them.
    (void)thread;
    (void)num_threads;
    (void)a;
    (void)x;
    (void)y;
    (void)n;
}

std::int64_t grid_stride_blocks(std::int64_t n, std::int64_t block_dim, std::int64_t sm_count,
                                std::int64_t blocks_per_sm) {
    // TODO: reject n < 0 and any other argument < 1 with std::invalid_argument.
    // TODO: return ceil(n / block_dim), at least 1, at most sm_count * blocks_per_sm.
    (void)n;
    (void)block_dim;
    (void)sm_count;
    (void)blocks_per_sm;
    return 0;
}

// Given: the kernel and its launch. Compiled only by nvcc (this file is CUDA when nvcc exists).
#if defined(__CUDACC__)
namespace {

__global__ void axpy_kernel(float a, const float* x, float* y, std::int64_t n) {
    const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t num_threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    axpy_grid_stride_body(thread, num_threads, a, x, y, n);
}

}  // namespace

void launch_axpy(float a, const float* x, float* y, std::int64_t n, std::int64_t blocks,
                 cudaStream_t stream) {
    axpy_kernel<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(a, x, y, n);
    const cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        throw std::runtime_error(std::string("launch_axpy: ") + cudaGetErrorString(status));
    }
}
#endif

}  // namespace ex
