/// @file tiled_transpose_test.cpp
/// @brief Tests of exercise tiled_transpose, built against the learner's file and the solution.
///
/// Element (r, c) of the input holds r * 1000 + c + 1 (exact in float for these sizes, and never
/// 0), so a wrong element names where it came from. Buffers carry a poisoned margin past their
/// end, and a tile's unused slots are poisoned too: a thread that reads or writes where it must
/// not shows up as a poison value where none belongs.
#include "tiled_transpose.h"

#include <tl_test/tensors.h>

#if TL_EXERCISE_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

constexpr float kPoison = -7.0F;
constexpr std::int64_t kMargin = 2 * ex::kTile * ex::kTile;

float value_at(std::int64_t r, std::int64_t c) { return static_cast<float>(r * 1000 + c + 1); }

/// The rows x cols input, row-major, followed by kMargin poisoned slots and as many again as the
/// longer side squared: a load with the wrong row length reads past the matrix, into poison, not
/// past the vector.
std::vector<float> matrix(std::int64_t rows, std::int64_t cols) {
    const std::int64_t side = std::max(rows, cols);
    std::vector<float> in(static_cast<std::size_t>(rows * cols + kMargin + side * side), kPoison);
    for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t c = 0; c < cols; ++c) {
            in[static_cast<std::size_t>(r * cols + c)] = value_at(r, c);
        }
    }
    return in;
}

/// One block's phase 1 on a poisoned tile: what every thread of block (block_row, block_col)
/// loaded.
std::vector<float> loaded_tile(int block_row, int block_col, const std::vector<float>& in,
                               std::int64_t rows, std::int64_t cols) {
    std::vector<float> tile(static_cast<std::size_t>(ex::kTile * ex::kTileStride), kPoison);
    for (int ty = 0; ty < ex::kTile; ++ty) {
        for (int tx = 0; tx < ex::kTile; ++tx) {
            ex::load_tile(block_row, block_col, ty, tx, in.data(), rows, cols, tile.data());
        }
    }
    return tile;
}

/// The twin's output (cols x rows), then the poisoned margin, long enough (kMargin plus the
/// square of the longer side) that a store with the wrong row length still lands inside the
/// buffer, where the test sees it, instead of corrupting the heap.
std::vector<float> transposed(std::int64_t rows, std::int64_t cols) {
    const auto in = matrix(rows, cols);
    const std::int64_t side = std::max(rows, cols);
    std::vector<float> out(static_cast<std::size_t>(rows * cols + kMargin + side * side), kPoison);
    ex::transpose_twin(in.data(), out.data(), rows, cols);
    return out;
}

}  // namespace

TEST_CASE("phase 1: each thread loads its own element into its own slot", "[tiled_transpose]") {
    // 70 x 45: block (1, 0) is full, block (2, 1) holds a 6 x 13 corner of the matrix.
    const std::int64_t rows = 70;
    const std::int64_t cols = 45;
    const auto in = matrix(rows, cols);
    for (const auto& [block_row, block_col] : {std::pair{1, 0}, std::pair{2, 1}, std::pair{0, 1}}) {
        const auto tile = loaded_tile(block_row, block_col, in, rows, cols);
        for (int ty = 0; ty < ex::kTile; ++ty) {
            for (int tx = 0; tx < ex::kTile; ++tx) {
                const std::int64_t r = std::int64_t{block_row} * ex::kTile + ty;
                const std::int64_t c = std::int64_t{block_col} * ex::kTile + tx;
                INFO("block (" << block_row << ", " << block_col << "), thread (ty " << ty
                               << ", tx " << tx << "): element (" << r << ", " << c << ") of a "
                               << rows << " x " << cols << " matrix");
                const bool inside = r < rows && c < cols;
                REQUIRE(tile[static_cast<std::size_t>(ty * ex::kTileStride + tx)] ==
                        (inside ? value_at(r, c) : kPoison));
            }
            INFO("row " << ty << " of the tile, its padding slot (column " << ex::kTile << ")");
            REQUIRE(tile[static_cast<std::size_t>(ty * ex::kTileStride + ex::kTile)] == kPoison);
        }
    }
}

TEST_CASE("phase 2: each thread writes one slot of the tile, turned, to its own element",
          "[tiled_transpose]") {
    const std::int64_t rows = 70;
    const std::int64_t cols = 45;
    for (const auto& [block_row, block_col] : {std::pair{2, 1}, std::pair{0, 1}, std::pair{1, 0}}) {
        // The tile as phase 1 leaves it: slot (i, j) holds in's (block_row*32+i, block_col*32+j).
        std::vector<float> tile(static_cast<std::size_t>(ex::kTile * ex::kTileStride), kPoison);
        for (int i = 0; i < ex::kTile; ++i) {
            for (int j = 0; j < ex::kTile; ++j) {
                tile[static_cast<std::size_t>(i * ex::kTileStride + j)] =
                    value_at(std::int64_t{block_row} * ex::kTile + i,
                             std::int64_t{block_col} * ex::kTile + j);
            }
        }
        std::vector<float> out(static_cast<std::size_t>(rows * cols + kMargin), kPoison);
        for (int ty = 0; ty < ex::kTile; ++ty) {
            for (int tx = 0; tx < ex::kTile; ++tx) {
                ex::store_tile(block_row, block_col, ty, tx, tile.data(), out.data(), rows, cols);
            }
        }
        // out is cols x rows; this block owns rows [block_col*32, +32) and columns
        // [block_row*32, +32) of it, where they exist. Everything else stays poisoned.
        for (std::int64_t i = 0; i < rows * cols + kMargin; ++i) {
            const std::int64_t r = i / rows;
            const std::int64_t c = i % rows;
            const bool owned =
                i < rows * cols && r / ex::kTile == block_col && c / ex::kTile == block_row;
            INFO("block (" << block_row << ", " << block_col << ") of a " << rows << " x " << cols
                           << " matrix; slot " << i << " of out"
                           << (i < rows * cols ? "" : " (past its end)") << ": element (" << r
                           << ", " << c << "), which must be "
                           << (owned ? "in's (" + std::to_string(c) + ", " + std::to_string(r) + ")"
                                     : std::string("left alone (another block's)")));
            REQUIRE(out[static_cast<std::size_t>(i)] == (owned ? value_at(c, r) : kPoison));
        }
    }
}

TEST_CASE("the twin transposes square, tall, wide, ragged and empty matrices",
          "[tiled_transpose]") {
    for (const auto& [rows, cols] : {std::pair<std::int64_t, std::int64_t>{32, 32},
                                     {64, 96},
                                     {96, 64},
                                     {1, 1},
                                     {1, 77},
                                     {77, 1},
                                     {33, 31},
                                     {70, 45},
                                     {130, 5}}) {
        const auto out = transposed(rows, cols);
        for (std::int64_t r = 0; r < cols; ++r) {
            for (std::int64_t c = 0; c < rows; ++c) {
                INFO(rows << " x " << cols << " in, so " << cols << " x " << rows
                          << " out: element (" << r << ", " << c << ") of out must be in's (" << c
                          << ", " << r << ")");
                REQUIRE(out[static_cast<std::size_t>(r * rows + c)] == value_at(c, r));
            }
        }
        for (std::size_t i = static_cast<std::size_t>(rows * cols); i < out.size(); ++i) {
            INFO(rows << " x " << cols << ": slot " << i << ", past the end of out");
            REQUIRE(out[i] == kPoison);
        }
    }
    // An empty matrix: nothing to read, nothing written.
    for (const auto& [rows, cols] : {std::pair<std::int64_t, std::int64_t>{0, 5}, {5, 0}}) {
        INFO(rows << " x " << cols);
        const auto out = transposed(rows, cols);
        CHECK(std::all_of(out.begin(), out.end(), [](float v) { return v == kPoison; }));
    }
}

TEST_CASE("the tiled transpose on the GPU matches ATen", "[gpu][tiled_transpose]") {
#if TL_EXERCISE_CUDA
    TL_REQUIRE_CUDA();
    for (const auto& [rows, cols] :
         {std::pair<std::int64_t, std::int64_t>{1024, 1024}, {1000, 333}, {7, 4099}}) {
        INFO(rows << " x " << cols);
        const auto in = torch::randn({rows, cols}, torch::kCUDA);
        auto out = torch::full({cols, rows}, kPoison, torch::kCUDA);
        ex::launch_tiled_transpose(in.const_data_ptr<float>(), out.mutable_data_ptr<float>(), rows,
                                   cols, at::cuda::getCurrentCUDAStream().stream());
        TL_CHECK_TENSOR_CLOSE(out, in.t().contiguous());
    }
#else
    TL_SKIP(
        "this build compiles no CUDA (no nvcc, or TORCHLINGS_CUDA=OFF): the CPU cases test the "
        "phases");
#endif
}
