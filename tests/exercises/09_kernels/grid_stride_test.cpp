/// @file grid_stride_test.cpp
/// @brief Tests of exercise grid_stride, built against the learner's file and the solution.
///
/// y += a * x with x = 1 and a = 1 adds exactly 1 to every element a thread visits, so after the
/// CPU twin has run every thread of the grid, y - y0 counts the visits: 1 everywhere, 0 past n.
/// With TORCHLINGS_TEST_SEED set (as when a class is graded), the cases also run on inputs drawn
/// from it (tl_test/drawn.h).
#include "grid_stride.h"

#include <tl_test/drawn.h>
#include <tl_test/tensors.h>

#if TL_EXERCISE_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace {

constexpr std::int64_t kPadding = 64;

// Runs every thread of a `num_threads`-thread grid; returns how often each of the n + kPadding
// slots was updated.
std::vector<int> visits(std::int64_t n, std::int64_t num_threads) {
    const std::vector<float> x(static_cast<std::size_t>(n + kPadding), 1.0F);
    std::vector<float> y(static_cast<std::size_t>(n + kPadding), 0.0F);
    for (std::int64_t t = 0; t < num_threads; ++t) {
        ex::axpy_grid_stride_body(t, num_threads, 1.0F, x.data(), y.data(), n);
    }
    return {y.begin(), y.end()};
}

}  // namespace

TEST_CASE("every grid size visits every element exactly once", "[grid_stride]") {
    const auto sizes = tl_test::with_drawn({1, 5, 32, 100, 1000}, 3, 1, 5000, "visits: n");
    const auto grids =
        tl_test::with_drawn({1, 2, 3, 31, 32, 33, 256, 2000}, 3, 1, 4096, "visits: threads");
    for (const std::int64_t n : sizes) {
        for (const std::int64_t threads : grids) {
            INFO("n = " << n << ", threads in the grid = " << threads << tl_test::seed_note());
            const auto count = visits(n, threads);
            for (std::int64_t i = 0; i < n + kPadding; ++i) {
                INFO("element " << i << (i < n ? "" : " (past the end)"));
                REQUIRE(count[static_cast<std::size_t>(i)] == (i < n ? 1 : 0));
            }
        }
    }
}

TEST_CASE("axpy computes y + a * x", "[grid_stride]") {
    const std::vector<float> x = {1, 2, 3, 4, 5};
    std::vector<float> y = {10, 20, 30, 40, 50};
    for (std::int64_t t = 0; t < 2; ++t) {
        ex::axpy_grid_stride_body(t, 2, -2.0F, x.data(), y.data(), 5);
    }
    CHECK(y == std::vector<float>{8, 16, 24, 32, 40});
}

TEST_CASE("grid_stride_blocks: one thread per element, capped at what the GPU holds",
          "[grid_stride]") {
    CHECK(ex::grid_stride_blocks(0, 256, 132, 8) == 1);
    CHECK(ex::grid_stride_blocks(1, 256, 132, 8) == 1);
    CHECK(ex::grid_stride_blocks(257, 256, 132, 8) == 2);
    CHECK(ex::grid_stride_blocks(256 * 1056, 256, 132, 8) == 1056);
    CHECK(ex::grid_stride_blocks(256 * 1056 + 1, 256, 132, 8) == 1056);
    CHECK(ex::grid_stride_blocks(std::int64_t{1} << 30, 256, 40, 4) == 160);
    if (const auto seed = tl_test::test_seed()) {
        auto draw = tl_test::drawn_generator(*seed, "grid_stride_blocks");
        for (int k = 0; k < 8; ++k) {
            // n up to 2^0 .. 2^32, so that either bound decides about as often.
            const int bits = static_cast<int>(tl_test::draw_between(draw, 0, 32));
            const std::int64_t n = tl_test::draw_between(draw, 0, std::int64_t{1} << bits);
            const std::int64_t block_dim = tl_test::draw_between(draw, 1, 1024);
            const std::int64_t sms = tl_test::draw_between(draw, 1, 256);
            const std::int64_t per_sm = tl_test::draw_between(draw, 1, 32);
            const std::int64_t one_per_element = n / block_dim + (n % block_dim != 0 ? 1 : 0);
            INFO("n = " << n << ", block_dim " << block_dim << ", " << sms << " SMs, " << per_sm
                        << " blocks per SM" << tl_test::seed_note());
            CHECK(ex::grid_stride_blocks(n, block_dim, sms, per_sm) ==
                  std::max<std::int64_t>(1, std::min(one_per_element, sms * per_sm)));
        }
    }
}

TEST_CASE("grid_stride_blocks rejects impossible arguments", "[grid_stride]") {
    CHECK_THROWS_AS(ex::grid_stride_blocks(-1, 256, 132, 8), std::invalid_argument);
    CHECK_THROWS_AS(ex::grid_stride_blocks(10, 0, 132, 8), std::invalid_argument);
    CHECK_THROWS_AS(ex::grid_stride_blocks(10, 256, 0, 8), std::invalid_argument);
    CHECK_THROWS_AS(ex::grid_stride_blocks(10, 256, 132, 0), std::invalid_argument);
}

TEST_CASE("axpy on the GPU matches ATen with a grid smaller than n", "[gpu][grid_stride]") {
#if TL_EXERCISE_CUDA
    TL_REQUIRE_CUDA();
    for (const std::int64_t blocks : {1, 3, 64}) {
        const std::int64_t n = 100003;
        INFO("blocks = " << blocks);
        const auto x = torch::randn({n}, torch::kCUDA);
        const auto y0 = torch::randn({n}, torch::kCUDA);
        auto y = y0.clone();
        ex::launch_axpy(0.5F, x.const_data_ptr<float>(), y.mutable_data_ptr<float>(), n, blocks,
                        at::cuda::getCurrentCUDAStream().stream());
        TL_CHECK_TENSOR_CLOSE(y, y0 + 0.5 * x);
    }
#else
    TL_SKIP(
        "this build compiles no CUDA (no nvcc, or TORCHLINGS_CUDA=OFF): the CPU cases test the "
        "body");
#endif
}
