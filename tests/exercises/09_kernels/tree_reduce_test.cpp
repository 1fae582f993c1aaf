/// @file tree_reduce_test.cpp
/// @brief Tests of exercise tree_reduce, built against the learner's file and the solution.
///
/// The values are small integers, which float32 adds exactly, so a lost or doubled slot shows
/// as a wrong total, not as rounding. The shared array is followed by poisoned slots: a step that
/// reads past the block turns the total into a huge number.
#include "tree_reduce.h"

#include <tl_test/tensors.h>

#if TL_EXERCISE_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace {

constexpr float kPoison = 1.0e9F;

// 1, 2, ..., block_dim, then block_dim poisoned slots.
std::vector<float> shared_of(int block_dim) {
    std::vector<float> shared(static_cast<std::size_t>(2 * block_dim), kPoison);
    for (int i = 0; i < block_dim; ++i) {
        shared[static_cast<std::size_t>(i)] = static_cast<float>(i + 1);
    }
    return shared;
}

}  // namespace

TEST_CASE("one tree step adds the upper half onto the lower half", "[tree_reduce]") {
    // The block's 8 slots, then 8 poisoned ones that no thread of the step may read or write.
    std::vector<float> shared = {1, 2, 3, 4, 10, 20, 30, 40};
    shared.resize(16, kPoison);
    auto expected = std::vector<float>{11, 22, 33, 44, 10, 20, 30, 40};
    expected.resize(16, kPoison);
    for (int tid = 0; tid < 8; ++tid) {
        ex::tree_step(tid, 4, shared.data());
    }
    CHECK(shared == expected);
}

TEST_CASE("a step changes only the first stride slots, whatever the stride", "[tree_reduce]") {
    // A block of 8 threads, then 8 poisoned slots: with a guard of tid <= stride, thread
    // `stride` also adds slot 2 * stride (past the block in the first step; a race on the GPU).
    for (const int stride : {4, 2, 1}) {
        INFO("stride = " << stride);
        auto shared = shared_of(8);
        auto expected = shared;
        for (int i = 0; i < stride; ++i) {
            expected[static_cast<std::size_t>(i)] += expected[static_cast<std::size_t>(i + stride)];
        }
        for (int tid = 0; tid < 8; ++tid) {
            ex::tree_step(tid, stride, shared.data());
        }
        CHECK(shared == expected);
    }
}

TEST_CASE("the twin leaves the block's total in slot 0", "[tree_reduce]") {
    for (const int block_dim : {1, 2, 4, 32, 256, 1024}) {
        INFO("block_dim = " << block_dim);
        auto shared = shared_of(block_dim);
        const float expected =
            static_cast<float>(block_dim) * static_cast<float>(block_dim + 1) / 2.0F;
        CHECK(ex::block_sum_twin(shared.data(), block_dim) == expected);
        CHECK(shared[0] == expected);
    }
}

TEST_CASE("the twin rejects a block that is not a power of two", "[tree_reduce]") {
    for (const int block_dim : {0, 3, 6, 100, -4}) {
        INFO("block_dim = " << block_dim);
        auto shared = shared_of(std::max(block_dim, 1));
        CHECK_THROWS_AS(ex::block_sum_twin(shared.data(), block_dim), std::invalid_argument);
    }
}

TEST_CASE("block sums on the GPU match ATen", "[gpu][tree_reduce]") {
#if TL_EXERCISE_CUDA
    TL_REQUIRE_CUDA();
    const std::int64_t n = 1000;  // three full blocks of 256 and a partial one
    const auto x =
        torch::arange(1, n + 1, torch::TensorOptions(torch::kFloat).device(torch::kCUDA));
    auto sums = torch::full({4}, -1.0F, torch::kCUDA);
    ex::launch_block_sums(x.const_data_ptr<float>(), sums.mutable_data_ptr<float>(), n,
                          at::cuda::getCurrentCUDAStream().stream());
    const auto padded = torch::cat({x, torch::zeros({24}, x.options())});
    TL_CHECK_TENSOR_CLOSE(sums, padded.view({4, 256}).sum(1));
#else
    TL_SKIP(
        "this build compiles no CUDA (no nvcc, or TORCHLINGS_CUDA=OFF): the CPU cases test the "
        "body");
#endif
}
