// Mistake: grid_stride_blocks ignores the SM count
// One thread per element for any n: a grid of millions of blocks, most of which wait for a free
// SM. The test expects at most sm_count * blocks_per_sm blocks.
/// @file grid_stride.cpp
/// @brief Solution of grid_stride (lesson 09).
#include "grid_stride.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ex {

TL_HOST_DEVICE void axpy_grid_stride_body(std::int64_t thread, std::int64_t num_threads, float a,
                                          const float* x, float* y, std::int64_t n) {
    // Start at this thread's own element, step by the whole grid: neighbours in a warp touch
    // neighbouring elements (coalesced), and no element is visited twice.
    for (std::int64_t i = thread; i < n; i += num_threads) {
        y[i] += a * x[i];
    }
}

std::int64_t grid_stride_blocks(std::int64_t n, std::int64_t block_dim, std::int64_t sm_count,
                                std::int64_t blocks_per_sm) {
    if (n < 0 || block_dim < 1 || sm_count < 1 || blocks_per_sm < 1) {
        throw std::invalid_argument(
            "grid_stride_blocks: expected n >= 0 and block_dim, sm_count, blocks_per_sm >= 1, "
            "got n = " +
            std::to_string(n) + ", block_dim = " + std::to_string(block_dim) + ", sm_count = " +
            std::to_string(sm_count) + ", blocks_per_sm = " + std::to_string(blocks_per_sm));
    }
    // Past one full wave, extra blocks only wait: the loop already covers any n.
    const std::int64_t wanted = (n + block_dim - 1) / block_dim;
    return std::max<std::int64_t>(wanted, 1);
}

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
