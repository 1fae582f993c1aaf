/// @file shard_indices_test.cpp
/// @brief Tests of exercise shard_indices, built against the learner's file and the solution.
#include "shard_indices.h"

#include "tl_test/catch.h"

#include <ATen/Context.h>
#include <ATen/ops/randn.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace {

constexpr std::uint64_t kSeed = 7;

std::vector<std::vector<std::int64_t>> all_ranks(std::int64_t size, int world,
                                                 std::int64_t epoch = 0) {
    std::vector<std::vector<std::int64_t>> shards;
    for (int rank = 0; rank < world; ++rank) {
        shards.push_back(ex::shard_indices(size, rank, world, kSeed, epoch));
    }
    return shards;
}

}  // namespace

TEST_CASE("one rank alone gets a shuffle of every index", "[task_1]") {
    auto alone = ex::shard_indices(10, 0, 1, kSeed, 0);
    REQUIRE(alone.size() == 10);
    CHECK(alone != std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    std::sort(alone.begin(), alone.end());
    CHECK(alone == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
}

TEST_CASE("ranks split an epoch into disjoint shards that cover it", "[task_1]") {
    const auto shards = all_ranks(12, 4);
    std::set<std::int64_t> seen;
    for (const auto& shard : shards) {
        CHECK(shard.size() == 3);
        seen.insert(shard.begin(), shard.end());
    }
    // Ranks that shuffled differently would overlap, and some samples would never be seen.
    CHECK(seen.size() == 12);
}

TEST_CASE("rank r takes every world_size-th entry of the shared order, from r", "[task_1]") {
    const auto order = ex::shard_indices(12, 0, 1, kSeed, 3);
    const auto shards = all_ranks(12, 3, 3);
    for (int rank = 0; rank < 3; ++rank) {
        std::vector<std::int64_t> expected;
        for (std::size_t i = static_cast<std::size_t>(rank); i < order.size(); i += 3) {
            expected.push_back(order[i]);
        }
        INFO("rank " << rank);
        CHECK(shards[static_cast<std::size_t>(rank)] == expected);
    }
}

TEST_CASE("an uneven epoch is padded by wrapping round, so every rank gets as many", "[task_1]") {
    const auto order = ex::shard_indices(10, 0, 1, kSeed, 0);
    const auto shards = all_ranks(10, 4);  // 10 samples, 4 ranks: 3 each, 2 padded
    for (const auto& shard : shards) {
        CHECK(shard.size() == 3);
    }
    // The padded order is order[0..9], order[0], order[1]; rank 2 gets entries 2, 6 and 10.
    CHECK(shards[2] == std::vector<std::int64_t>{order[2], order[6], order[0]});
    CHECK(shards[3] == std::vector<std::int64_t>{order[3], order[7], order[1]});
}

TEST_CASE("each epoch has its own order, the same on every call", "[task_1]") {
    CHECK(ex::shard_indices(100, 1, 2, kSeed, 0) == ex::shard_indices(100, 1, 2, kSeed, 0));
    CHECK(ex::shard_indices(100, 1, 2, kSeed, 0) != ex::shard_indices(100, 1, 2, kSeed, 1));
}

TEST_CASE("the caller's global random generator is left alone", "[task_1]") {
    // The shuffle needs a generator of its own: reseeding the global one would restart the
    // training loop's random numbers (dropout, augmentation) from seed + epoch at every call.
    at::manual_seed(123);
    const auto expected = at::randn({4});
    at::manual_seed(123);
    (void)ex::shard_indices(10, 0, 2, kSeed, 1);
    CHECK(at::randn({4}).equal(expected));
}

TEST_CASE("bad arguments are refused with a message", "[task_1]") {
    CHECK_THROWS_AS(ex::shard_indices(10, 2, 2, kSeed, 0), std::invalid_argument);
    CHECK_THROWS_AS(ex::shard_indices(10, -1, 2, kSeed, 0), std::invalid_argument);
    CHECK_THROWS_AS(ex::shard_indices(10, 0, 0, kSeed, 0), std::invalid_argument);
    CHECK_THROWS_AS(ex::shard_indices(0, 0, 1, kSeed, 0), std::invalid_argument);
}
