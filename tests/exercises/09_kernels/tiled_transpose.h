/// @file tiled_transpose.h
/// @brief Exercise tiled_transpose: the API the learner's file implements and the tests call.
///
/// Compiled by nvcc (as CUDA) when this build compiles CUDA kernels, by g++ otherwise: it
/// includes no LibTorch header.
#pragma once

#include <torchlings/kernels/host_device.h>

#include <cstdint>

#if defined(__CUDACC__) || TL_EXERCISE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace ex {

/// The side of a tile: a block of kTile x kTile threads moves one kTile x kTile tile.
inline constexpr int kTile = 32;
/// A tile's row in shared memory: one float longer than the tile, so that the threads of a warp
/// reading a column hit 32 different memory banks (kTile would put them all in one).
inline constexpr int kTileStride = kTile + 1;

/// Phase 1 of thread (ty, tx) of block (block_row, block_col), transposing the row-major
/// rows x cols matrix `in`: copies in's element at row block_row * kTile + ty, column
/// block_col * kTile + tx into tile[ty * kTileStride + tx]. A thread whose element lies outside
/// the matrix reads and writes nothing.
TL_HOST_DEVICE void load_tile(int block_row, int block_col, int ty, int tx, const float* in,
                              std::int64_t rows, std::int64_t cols, float* tile);

/// Phase 2, after every thread of the block has loaded (the barrier): writes the tile, turned,
/// into the row-major cols x rows matrix `out`. Thread (ty, tx) writes out's element at row
/// block_col * kTile + ty, column block_row * kTile + tx, which is in's element at row
/// block_row * kTile + tx, column block_col * kTile + ty: the tile's slot
/// tile[tx * kTileStride + ty]. A thread whose element lies outside `out` writes nothing.
/// Consecutive tx write consecutive addresses of out (coalesced), as they read consecutive
/// addresses of in in phase 1.
TL_HOST_DEVICE void store_tile(int block_row, int block_col, int ty, int tx, const float* tile,
                               float* out, std::int64_t rows, std::int64_t cols);

/// The CPU twin (given): for every block of the grid, every thread's load_tile, then, as after
/// __syncthreads(), every thread's store_tile; out (cols x rows) receives in transposed.
void transpose_twin(const float* in, float* out, std::int64_t rows, std::int64_t cols);

#if defined(__CUDACC__) || TL_EXERCISE_CUDA
/// Launches the tiled transpose kernel on `stream` (given): a grid of ceil(cols / kTile) x
/// ceil(rows / kTile) blocks of kTile x kTile threads, a tile in shared memory each.
void launch_tiled_transpose(const float* in, float* out, std::int64_t rows, std::int64_t cols,
                            cudaStream_t stream);
#endif

}  // namespace ex
