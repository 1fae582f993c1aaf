/// @file tiled_transpose.cpp
/// @brief Exercise tiled_transpose (lesson 09): a transpose through a tile in shared memory.
///
/// A plain transpose reads rows and writes columns: one of the two is strided, and a warp's 32
/// accesses land in 32 different memory segments. A block that first loads a 32 x 32 tile into
/// shared memory (row by row), meets at a barrier, then writes the tile turned (again row by row
/// of the output) keeps both global accesses coalesced; the strided access happens in shared
/// memory, which is fast at it. Write the two phases of one thread; the CPU twin and the kernel
/// around them are given.
/// Check it with: ./torchlings check tiled_transpose      Stuck? ./torchlings hint tiled_transpose
#include "tiled_transpose.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace ex {

TL_HOST_DEVICE void load_tile(int block_row, int block_col, int ty, int tx, const float* in,
                              std::int64_t rows, std::int64_t cols, float* tile) {
    // TODO: this thread's element of `in`: row block_row * kTile + ty, column
    // TODO: block_col * kTile + tx (in std::int64_t). If it lies inside the rows x cols matrix,
    // TODO: copy it into tile[ty * kTileStride + tx].
    (void)block_row;
    (void)block_col;
    (void)ty;
    (void)tx;
    (void)in;
    (void)rows;
    (void)cols;
    (void)tile;
}

TL_HOST_DEVICE void store_tile(int block_row, int block_col, int ty, int tx, const float* tile,
                               float* out, std::int64_t rows, std::int64_t cols) {
    // TODO: this thread's element of `out` (cols x rows): row block_col * kTile + ty, column
    // TODO: block_row * kTile + tx. If it lies inside `out`, write the tile's slot that holds
    // TODO: in's element at (block_row * kTile + tx, block_col * kTile + ty).
    (void)block_row;
    (void)block_col;
    (void)ty;
    (void)tx;
    (void)tile;
    (void)out;
    (void)rows;
    (void)cols;
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
