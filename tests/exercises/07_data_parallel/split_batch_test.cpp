/// @file split_batch_test.cpp
/// @brief Tests of exercise split_batch, built against the learner's file and the solution.
/// With TORCHLINGS_TEST_SEED set (as when a class is graded), the cases also run on batch sizes
/// and shard counts drawn from it (tl_test/drawn.h).
#include "split_batch.h"

#include <tl_test/drawn.h>
#include <tl_test/tensors.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

using Sizes = std::vector<std::int64_t>;

namespace {

/// min(batch, n) shards: batch / shards rows each, one more for the first batch % shards.
Sizes expected_sizes(std::int64_t batch, std::int64_t n) {
    const std::int64_t shards = std::min(batch, n);
    Sizes sizes(static_cast<std::size_t>(shards), batch / shards);
    for (std::int64_t i = 0; i < batch % shards; ++i) {
        ++sizes[static_cast<std::size_t>(i)];
    }
    return sizes;
}

}  // namespace

TEST_CASE("an even batch gives equal shards", "[task_1]") {
    CHECK(ex::shard_sizes(8, 4) == Sizes{2, 2, 2, 2});
    CHECK(ex::shard_sizes(6, 1) == Sizes{6});
    CHECK(ex::shard_sizes(1, 1) == Sizes{1});
}

TEST_CASE("the remainder goes to the first shards", "[task_1]") {
    CHECK(ex::shard_sizes(10, 4) == Sizes{3, 3, 2, 2});
    CHECK(ex::shard_sizes(7, 3) == Sizes{3, 2, 2});
    CHECK(ex::shard_sizes(5, 2) == Sizes{3, 2});
    if (const auto seed = tl_test::test_seed()) {
        auto draw = tl_test::drawn_generator(*seed, "the remainder goes to the first shards");
        for (int k = 0; k < 8; ++k) {
            const std::int64_t batch = tl_test::draw_between(draw, 1, 1000000);
            const std::int64_t n = tl_test::draw_between(draw, 1, 64);
            INFO("batch " << batch << ", n " << n << tl_test::seed_note());
            CHECK(ex::shard_sizes(batch, n) == expected_sizes(batch, n));
        }
    }
}

TEST_CASE("more shards than rows gives one row per shard and no empty shard", "[task_1]") {
    CHECK(ex::shard_sizes(3, 5) == Sizes{1, 1, 1});
    CHECK(ex::shard_sizes(1, 8) == Sizes{1});
}

TEST_CASE("sizes always add up to the batch and differ by at most one", "[task_1]") {
    for (std::int64_t batch = 1; batch <= 40; ++batch) {
        for (std::int64_t n = 1; n <= 9; ++n) {
            INFO("batch " << batch << ", n " << n);
            const auto sizes = ex::shard_sizes(batch, n);
            REQUIRE(static_cast<std::int64_t>(sizes.size()) == std::min(batch, n));
            CHECK(std::accumulate(sizes.begin(), sizes.end(), std::int64_t{0}) == batch);
            const auto [low, high] = std::minmax_element(sizes.begin(), sizes.end());
            CHECK(*low >= 1);
            CHECK(*high - *low <= 1);
            CHECK(std::is_sorted(sizes.rbegin(), sizes.rend()));
        }
    }
}

TEST_CASE("no rows or no shards is an error", "[task_1]") {
    CHECK_THROWS_AS(ex::shard_sizes(0, 2), std::invalid_argument);
    CHECK_THROWS_AS(ex::shard_sizes(4, 0), std::invalid_argument);
    CHECK_THROWS_AS(ex::shard_sizes(4, -1), std::invalid_argument);
}

TEST_CASE("the shards keep the rows in order", "[task_2]") {
    const auto batch = torch::arange(10 * 3, torch::kFloat32).reshape({10, 3});
    const auto shards = ex::split_batch(batch, 4);
    REQUIRE(shards.size() == 4);
    const Sizes expected_rows{3, 3, 2, 2};
    for (std::size_t i = 0; i < shards.size(); ++i) {
        INFO("shard " << i);
        CHECK(shards[i].sizes() == torch::IntArrayRef({expected_rows[i], 3}));
    }
    TL_CHECK_TENSOR_CLOSE(torch::cat(shards, 0), batch);
    TL_CHECK_TENSOR_CLOSE(shards[1][0], batch[3]);
    if (const auto seed = tl_test::test_seed()) {
        auto draw = tl_test::drawn_generator(*seed, "the shards keep the rows in order");
        for (int k = 0; k < 4; ++k) {
            const std::int64_t rows = tl_test::draw_between(draw, 1, 200);
            const std::int64_t n = tl_test::draw_between(draw, 1, 16);
            INFO(rows << " rows, n " << n << tl_test::seed_note());
            const auto drawn = torch::arange(rows * 3, torch::kFloat32).reshape({rows, 3});
            const auto parts = ex::split_batch(drawn, n);
            const Sizes expected = expected_sizes(rows, n);
            REQUIRE(parts.size() == expected.size());
            for (std::size_t i = 0; i < parts.size(); ++i) {
                INFO("shard " << i);
                CHECK(parts[i].sizes() == torch::IntArrayRef({expected[i], 3}));
            }
            TL_CHECK_TENSOR_CLOSE(torch::cat(parts, 0), drawn);
        }
    }
}

TEST_CASE("the shards are views of the batch", "[task_2]") {
    const auto batch = torch::randn({6, 2});
    const auto shards = ex::split_batch(batch, 3);
    REQUIRE(shards.size() == 3);
    for (const auto& shard : shards) {
        CHECK(shard.is_alias_of(batch));
    }
}

TEST_CASE("a one-dimensional batch of labels splits the same way", "[task_2]") {
    const auto labels = torch::arange(5, torch::kLong);
    const auto shards = ex::split_batch(labels, 8);
    REQUIRE(shards.size() == 5);
    for (std::size_t i = 0; i < shards.size(); ++i) {
        TL_CHECK_TENSOR_CLOSE(
            shards[i], labels.slice(0, static_cast<int64_t>(i), static_cast<int64_t>(i) + 1));
    }
}

TEST_CASE("a scalar or an empty batch is an error", "[task_2]") {
    CHECK_THROWS_AS(ex::split_batch(torch::tensor(1.0F), 2), std::invalid_argument);
    CHECK_THROWS_AS(ex::split_batch(torch::zeros({0, 3}), 2), std::invalid_argument);
    CHECK_THROWS_AS(ex::split_batch(torch::zeros({4, 3}), 0), std::invalid_argument);
}
