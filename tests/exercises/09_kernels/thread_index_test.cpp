/// @file thread_index_test.cpp
/// @brief Tests of exercise thread_index, built against the learner's file and the solution.
///
/// The CPU twin here runs relu_body for every (block, thread) of the grid, one after another:
/// the same calls the GPU makes in parallel. Outputs carry a poisoned tail one block long, so
/// a thread that writes past n is caught on any machine. With TORCHLINGS_TEST_SEED set (as when a
/// class is graded), the cases also run on inputs drawn from it (tl_test/drawn.h).
#include "thread_index.h"

#include <tl_test/drawn.h>
#include <tl_test/tensors.h>

#if TL_EXERCISE_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace {

constexpr std::int64_t kBlock = 256;
constexpr float kPoison = -12345.0F;

// The CPU twin of relu_kernel: the whole grid, thread by thread. Returns out[0..n) and leaves
// the kBlock poisoned slots after it for the caller to check.
std::vector<float> relu_twin(const std::vector<float>& x, std::int64_t blocks) {
    const auto n = static_cast<std::int64_t>(x.size());
    std::vector<float> padded_x(x);  // a body that reads past n stays inside this buffer
    padded_x.resize(x.size() + kBlock, 1.0F);
    std::vector<float> out(x.size() + kBlock, kPoison);
    for (std::int64_t b = 0; b < blocks; ++b) {
        for (std::int64_t t = 0; t < kBlock; ++t) {
            const std::int64_t i = ex::global_index(b, kBlock, t);
            if (i >= 0 && i < n + kBlock) {  // the twin's own guard: keep the test in its buffer
                ex::relu_body(i, padded_x.data(), out.data(), n);
            }
        }
    }
    return out;
}

std::vector<float> ramp(std::int64_t n) {  // -n/2 .. n/2: half negative, half positive
    std::vector<float> x(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
        x[static_cast<std::size_t>(i)] = static_cast<float>(i - n / 2) + 0.5F;
    }
    return x;
}

}  // namespace

TEST_CASE("global_index: block * block_dim + thread", "[thread_index]") {
    CHECK(ex::global_index(0, 256, 0) == 0);
    CHECK(ex::global_index(0, 256, 255) == 255);
    CHECK(ex::global_index(1, 256, 0) == 256);
    CHECK(ex::global_index(3, 128, 7) == 3 * 128 + 7);
    if (const auto seed = tl_test::test_seed()) {
        auto draw = tl_test::drawn_generator(*seed, "global_index: block * block_dim + thread");
        for (int k = 0; k < 8; ++k) {
            const std::int64_t block = tl_test::draw_between(draw, 0, (std::int64_t{1} << 31) - 1);
            const std::int64_t block_dim = tl_test::draw_between(draw, 1, 1024);
            const std::int64_t thread = tl_test::draw_between(draw, 0, block_dim - 1);
            INFO("block " << block << ", block_dim " << block_dim << ", thread " << thread
                          << tl_test::seed_note());
            CHECK(ex::global_index(block, block_dim, thread) == block * block_dim + thread);
        }
    }
}

TEST_CASE("global_index stays right past 2^32 elements", "[thread_index]") {
    // 2^23 blocks of 1024 threads: 32-bit unsigned arithmetic (blockIdx.x * blockDim.x) wraps.
    const std::int64_t block = std::int64_t{1} << 23;
    CHECK(ex::global_index(block, 1024, 5) == (std::int64_t{1} << 33) + 5);
    CHECK(ex::global_index(block + 1, 1024, 1023) == (std::int64_t{1} << 33) + 2047);
}

TEST_CASE("blocks_needed rounds up", "[thread_index]") {
    CHECK(ex::blocks_needed(0, kBlock) == 0);
    CHECK(ex::blocks_needed(1, kBlock) == 1);
    CHECK(ex::blocks_needed(kBlock, kBlock) == 1);
    CHECK(ex::blocks_needed(kBlock + 1, kBlock) == 2);
    CHECK(ex::blocks_needed(1000, 32) == 32);
    CHECK(ex::blocks_needed(std::int64_t{1} << 33, 1024) == std::int64_t{1} << 23);
    if (const auto seed = tl_test::test_seed()) {
        auto draw = tl_test::drawn_generator(*seed, "blocks_needed rounds up");
        for (int k = 0; k < 8; ++k) {
            const std::int64_t n = tl_test::draw_between(draw, 0, std::int64_t{1} << 40);
            const std::int64_t block_dim = tl_test::draw_between(draw, 1, 4096);
            INFO("n = " << n << ", block_dim " << block_dim << tl_test::seed_note());
            CHECK(ex::blocks_needed(n, block_dim) == n / block_dim + (n % block_dim != 0 ? 1 : 0));
        }
    }
}

TEST_CASE("blocks_needed stays exact past 2^53", "[thread_index]") {
    // A double holds whole numbers exactly only up to 2^53: ceil(double(n) / block_dim) reads
    // 2^60 + 1 as 2^60 and forgets the partial block that holds the last element.
    CHECK(ex::blocks_needed((std::int64_t{1} << 60) + 1, 256) == (std::int64_t{1} << 52) + 1);
    CHECK(ex::blocks_needed((std::int64_t{1} << 53) + 1, 1) == (std::int64_t{1} << 53) + 1);
    // Drawn (TORCHLINGS_TEST_SEED): most of these are off by one or more in double arithmetic.
    if (const auto seed = tl_test::test_seed()) {
        auto draw = tl_test::drawn_generator(*seed, "blocks_needed stays exact past 2^53");
        for (int k = 0; k < 12; ++k) {
            const std::int64_t n =
                tl_test::draw_between(draw, std::int64_t{1} << 53, std::int64_t{1} << 62);
            const std::int64_t block_dim = tl_test::draw_between(draw, 1, 256);
            INFO("n = " << n << ", block_dim " << block_dim << tl_test::seed_note());
            CHECK(ex::blocks_needed(n, block_dim) == n / block_dim + (n % block_dim != 0 ? 1 : 0));
        }
    }
}

TEST_CASE("blocks_needed rejects a negative n and an empty block", "[thread_index]") {
    CHECK_THROWS_AS(ex::blocks_needed(-1, kBlock), std::invalid_argument);
    CHECK_THROWS_WITH(ex::blocks_needed(10, 0), Catch::Matchers::ContainsSubstring("0"));
    CHECK_THROWS_AS(ex::blocks_needed(10, 0), std::invalid_argument);
}

TEST_CASE("relu on the CPU twin: every element once, nothing past the end", "[thread_index]") {
    for (const std::int64_t n :
         tl_test::with_drawn({1, 7, 255, 256, 257, 1000}, 4, 1, 3000, "relu on the CPU twin")) {
        INFO("n = " << n << tl_test::seed_note());
        const auto x = ramp(n);
        const auto out = relu_twin(x, ex::blocks_needed(n, kBlock));
        for (std::int64_t i = 0; i < n; ++i) {
            INFO("element " << i << " of x = " << x[static_cast<std::size_t>(i)]);
            REQUIRE(out[static_cast<std::size_t>(i)] ==
                    std::max(x[static_cast<std::size_t>(i)], 0.0F));
        }
        for (std::int64_t i = n; i < n + kBlock; ++i) {
            INFO("slot " << i << " is past the end (n = " << n << ")");
            REQUIRE(out[static_cast<std::size_t>(i)] == kPoison);
        }
    }
}

TEST_CASE("relu on the GPU matches ATen", "[gpu][thread_index]") {
#if TL_EXERCISE_CUDA
    TL_REQUIRE_CUDA();
    for (const std::int64_t n : {1, 257, 1 << 20}) {
        INFO("n = " << n);
        const auto x = torch::randn({n}, torch::kCUDA);
        auto out = torch::full({n + kBlock}, kPoison, torch::kCUDA);
        ex::launch_relu(x.const_data_ptr<float>(), out.mutable_data_ptr<float>(), n,
                        at::cuda::getCurrentCUDAStream().stream());
        TL_CHECK_TENSOR_CLOSE(out.narrow(0, 0, n), torch::relu(x));
        TL_CHECK_TENSOR_CLOSE(out.narrow(0, n, kBlock),
                              torch::full({kBlock}, kPoison, torch::kCUDA));
    }
#else
    TL_SKIP(
        "this build compiles no CUDA (no nvcc, or TORCHLINGS_CUDA=OFF): the CPU cases test the "
        "body");
#endif
}
