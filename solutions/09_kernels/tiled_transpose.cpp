/// @file tiled_transpose.cpp
/// @brief Solution of tiled_transpose (lesson 09).
#include "tiled_transpose.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace ex {

TL_HOST_DEVICE void load_tile(int block_row, int block_col, int ty, int tx, const float* in,
                              std::int64_t rows, std::int64_t cols, float* tile) {
    const std::int64_t row = static_cast<std::int64_t>(block_row) * kTile + ty;
    const std::int64_t col = static_cast<std::int64_t>(block_col) * kTile + tx;
    if (row < rows && col < cols) {
        tile[ty * kTileStride + tx] = in[row * cols + col];
    }
}

TL_HOST_DEVICE void store_tile(int block_row, int block_col, int ty, int tx, const float* tile,
                               float* out, std::int64_t rows, std::int64_t cols) {
    const std::int64_t out_row = static_cast<std::int64_t>(block_col) * kTile + ty;
    const std::int64_t out_col = static_cast<std::int64_t>(block_row) * kTile + tx;
    if (out_row < cols && out_col < rows) {
        out[out_row * rows + out_col] = tile[tx * kTileStride + ty];
    }
}

// Given: the CPU twin and the kernel.
void transpose_twin(const float* in, float* out, std::int64_t rows, std::int64_t cols) {
    if (rows < 0 || cols < 0) {
        throw std::invalid_argument("transpose_twin: expected rows >= 0 and cols >= 0, got " +
                                    std::to_string(rows) + " x " + std::to_string(cols));
    }
    std::vector<float> tile(static_cast<std::size_t>(kTile * kTileStride));
    for (std::int64_t by = 0; by * kTile < rows; ++by) {
        for (std::int64_t bx = 0; bx * kTile < cols; ++bx) {
            const int block_row = static_cast<int>(by);
            const int block_col = static_cast<int>(bx);
            for (int ty = 0; ty < kTile; ++ty) {
                for (int tx = 0; tx < kTile; ++tx) {
                    load_tile(block_row, block_col, ty, tx, in, rows, cols, tile.data());
                }
            }
            // __syncthreads(): every load of the block is done before any store begins.
            for (int ty = 0; ty < kTile; ++ty) {
                for (int tx = 0; tx < kTile; ++tx) {
                    store_tile(block_row, block_col, ty, tx, tile.data(), out, rows, cols);
                }
            }
        }
    }
}

#if defined(__CUDACC__)
namespace {

__global__ void tiled_transpose_kernel(const float* in, float* out, std::int64_t rows,
                                       std::int64_t cols) {
    __shared__ float tile[kTile * kTileStride];
    const int block_row = static_cast<int>(blockIdx.y);
    const int block_col = static_cast<int>(blockIdx.x);
    const int ty = static_cast<int>(threadIdx.y);
    const int tx = static_cast<int>(threadIdx.x);
    load_tile(block_row, block_col, ty, tx, in, rows, cols, tile);
    __syncthreads();  // every thread reaches it: no thread returns early above
    store_tile(block_row, block_col, ty, tx, tile, out, rows, cols);
}

}  // namespace

void launch_tiled_transpose(const float* in, float* out, std::int64_t rows, std::int64_t cols,
                            cudaStream_t stream) {
    if (rows == 0 || cols == 0) {
        return;
    }
    const dim3 grid(static_cast<unsigned>((cols + kTile - 1) / kTile),
                    static_cast<unsigned>((rows + kTile - 1) / kTile));
    const dim3 block(kTile, kTile);
    tiled_transpose_kernel<<<grid, block, 0, stream>>>(in, out, rows, cols);
    const cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        throw std::runtime_error(std::string("launch_tiled_transpose: ") +
                                 cudaGetErrorString(status));
    }
}
#endif

}  // namespace ex
