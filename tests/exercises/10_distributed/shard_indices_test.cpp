/// @file shard_indices_test.cpp
/// @brief Tests of exercise shard_indices, built against the learner's file and the solution.
/// With TORCHLINGS_TEST_SEED set (as when a class is graded), the cases also run on sizes, world
/// sizes, seeds and epochs drawn from it (tl_test/drawn.h).
#include "shard_indices.h"

#include "tl_test/catch.h"
#include "tl_test/drawn.h"

#include <ATen/Context.h>
#include <ATen/ops/randn.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>

namespace {

constexpr std::uint64_t kSeed = 7;

std::vector<std::vector<std::int64_t>> all_ranks(std::int64_t size, int world,
                                                 std::int64_t epoch = 0,
                                                 std::uint64_t seed = kSeed) {
    std::vector<std::vector<std::int64_t>> shards;
    for (int rank = 0; rank < world; ++rank) {
        shards.push_back(ex::shard_indices(size, rank, world, seed, epoch));
    }
    return shards;
}

/// One sampler: its size, world size, seed and epoch.
struct Sampler {
    std::int64_t size;
    int world;
    std::uint64_t seed;
    std::int64_t epoch;
};

/// `fixed`, then, with TORCHLINGS_TEST_SEED set, `count` samplers drawn from it: `min_size` to
/// 3000 samples, 1 to `max_world` ranks, any 32-bit seed, epochs 0 to 1000.
std::vector<Sampler> with_drawn_samplers(std::vector<Sampler> fixed, std::string_view salt,
                                         int count = 3, std::int64_t min_size = 1,
                                         int max_world = 16) {
    if (const auto seed = tl_test::test_seed()) {
        auto draw = tl_test::drawn_generator(*seed, salt);
        for (int k = 0; k < count; ++k) {
            const std::int64_t size = tl_test::draw_between(draw, min_size, 3000);
            const auto world = static_cast<int>(tl_test::draw_between(draw, 1, max_world));
            const auto sampler_seed =
                static_cast<std::uint64_t>(tl_test::draw_between(draw, 0, 0xffffffff));
            fixed.push_back({size, world, sampler_seed, tl_test::draw_between(draw, 0, 1000)});
        }
    }
    return fixed;
}

}  // namespace

TEST_CASE("one rank alone gets a shuffle of every index", "[task_1]") {
    // Drawn sizes start at 20: a shuffle of 20 is the identity once in 20! (about 2.4e18).
    for (const auto& [size, world, seed, epoch] :
         with_drawn_samplers({{10, 1, kSeed, 0}}, "one rank alone", 3, 20)) {
        INFO("size " << size << ", seed " << seed << ", epoch " << epoch << tl_test::seed_note());
        auto alone = ex::shard_indices(size, 0, 1, seed, epoch);
        REQUIRE(static_cast<std::int64_t>(alone.size()) == size);
        std::vector<std::int64_t> every(static_cast<std::size_t>(size));
        std::iota(every.begin(), every.end(), std::int64_t{0});
        CHECK(alone != every);
        std::sort(alone.begin(), alone.end());
        CHECK(alone == every);
    }
}

TEST_CASE("ranks split an epoch into disjoint shards that cover it", "[task_1]") {
    for (const auto& [size, world, seed, epoch] :
         with_drawn_samplers({{12, 4, kSeed, 0}}, "disjoint shards")) {
        INFO("size " << size << ", " << world << " ranks, seed " << seed << ", epoch " << epoch
                     << tl_test::seed_note());
        const auto shards = all_ranks(size, world, epoch, seed);
        std::set<std::int64_t> seen;
        for (const auto& shard : shards) {
            CHECK(static_cast<std::int64_t>(shard.size()) == (size + world - 1) / world);
            seen.insert(shard.begin(), shard.end());
        }
        // Ranks that shuffled differently would overlap, and some samples would never be seen.
        CHECK(static_cast<std::int64_t>(seen.size()) == size);
    }
}

TEST_CASE("rank r takes every world_size-th entry of the shared order, from r", "[task_1]") {
    for (const auto& [size, world, seed, epoch] :
         with_drawn_samplers({{12, 3, kSeed, 3}}, "every world_size-th entry")) {
        INFO("size " << size << ", " << world << " ranks, seed " << seed << ", epoch " << epoch
                     << tl_test::seed_note());
        const auto order = ex::shard_indices(size, 0, 1, seed, epoch);
        REQUIRE(static_cast<std::int64_t>(order.size()) == size);
        const auto shards = all_ranks(size, world, epoch, seed);
        // The order padded by wrapping round to a multiple of world (no padding for 12 and 3).
        const std::int64_t padded = (size + world - 1) / world * world;
        for (int rank = 0; rank < world; ++rank) {
            std::vector<std::int64_t> expected;
            for (std::int64_t i = rank; i < padded; i += world) {
                expected.push_back(order[static_cast<std::size_t>(i % size)]);
            }
            INFO("rank " << rank);
            CHECK(shards[static_cast<std::size_t>(rank)] == expected);
        }
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
    // Drawn: at least 200 samples over at most 4 ranks, so that two epochs' shards of 50 or more
    // differ but once in 200! / 150! (far below 1e-100).
    for (const auto& [size, world, seed, epoch] :
         with_drawn_samplers({{100, 2, kSeed, 0}}, "each epoch", 3, 200, 4)) {
        const int rank = world - 1;
        INFO("size " << size << ", rank " << rank << " of " << world << ", seed " << seed
                     << ", epoch " << epoch << tl_test::seed_note());
        CHECK(ex::shard_indices(size, rank, world, seed, epoch) ==
              ex::shard_indices(size, rank, world, seed, epoch));
        CHECK(ex::shard_indices(size, rank, world, seed, epoch) !=
              ex::shard_indices(size, rank, world, seed, epoch + 1));
    }
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
