/// @file peak_tracker_test.cpp
/// @brief Tests of exercise peak_tracker, built against the learner's file and the solution.
#include "peak_tracker.h"

#include <tl_test/tensors.h>

#include <stdexcept>
#include <vector>

namespace {

ex::MemoryEvent alloc(std::int64_t id, std::uint64_t bytes) {
    return {ex::EventKind::kAlloc, id, bytes};
}
ex::MemoryEvent free_block(std::int64_t id) { return {ex::EventKind::kFree, id, 0}; }
ex::MemoryEvent reset_peak() { return {ex::EventKind::kResetPeak, 0, 0}; }
ex::MemoryEvent empty_cache() { return {ex::EventKind::kEmptyCache, 0, 0}; }

}  // namespace

TEST_CASE("no events means nothing allocated", "[task_1]") {
    const auto r = ex::replay({});
    CHECK(r.allocated == 0);
    CHECK(r.peak == 0);
    CHECK(r.reserved == 0);
}

TEST_CASE("allocated follows allocs and frees and the peak remembers the top", "[task_1]") {
    const auto r = ex::replay({alloc(1, 100), alloc(2, 50), free_block(1), alloc(3, 30)});
    CHECK(r.allocated == 80);
    CHECK(r.peak == 150);
}

TEST_CASE("a free returns the bytes of that block", "[task_1]") {
    // The free event carries no size: the tracker must remember it.
    const auto r = ex::replay({alloc(7, 4096), alloc(8, 512), free_block(8)});
    CHECK(r.allocated == 4096);
    CHECK(r.peak == 4608);
}

TEST_CASE("reset_peak restarts the peak from what is alive", "[task_2]") {
    const auto r = ex::replay(
        {alloc(1, 1000), free_block(1), alloc(2, 200), reset_peak(), alloc(3, 100), free_block(3)});
    CHECK(r.allocated == 200);
    CHECK(r.peak == 300);
    const auto just_reset = ex::replay({alloc(1, 1000), free_block(1), reset_peak()});
    CHECK(just_reset.peak == 0);
    // Live blocks count at once: the peak right after a reset is what is allocated, not zero,
    // and it stays there when those blocks are freed later.
    const auto live = ex::replay({alloc(1, 1000), alloc(2, 200), free_block(1), reset_peak()});
    CHECK(live.allocated == 200);
    CHECK(live.peak == 200);
    const auto freed_after = ex::replay({alloc(2, 200), reset_peak(), free_block(2)});
    CHECK(freed_after.allocated == 0);
    CHECK(freed_after.peak == 200);
}

TEST_CASE("reserved keeps freed blocks until empty_cache", "[task_3]") {
    const auto cached = ex::replay({alloc(1, 1000), alloc(2, 500), free_block(1)});
    CHECK(cached.allocated == 500);
    CHECK(cached.reserved == 1500);  // block 1 went to the cache, not to the driver
    const auto reused = ex::replay({alloc(1, 1000), free_block(1), alloc(2, 800)});
    CHECK(reused.reserved == 1000);  // the cached 1000 bytes cover the new 800
    const auto grown = ex::replay({alloc(1, 1000), free_block(1), alloc(2, 1200)});
    CHECK(grown.reserved == 1200);
}

TEST_CASE("empty_cache frees nothing a live block holds", "[task_3]") {
    const auto r = ex::replay({alloc(1, 1000), alloc(2, 500), free_block(1), empty_cache()});
    CHECK(r.allocated == 500);
    CHECK(r.reserved == 500);
    CHECK(r.peak == 1500);  // the peak is about allocated, not the cache
}

TEST_CASE("double allocs and frees of dead blocks are errors", "[task_4]") {
    CHECK_THROWS_AS(ex::replay({alloc(1, 10), alloc(1, 20)}), std::invalid_argument);
    CHECK_THROWS_AS(ex::replay({free_block(3)}), std::invalid_argument);
    CHECK_THROWS_AS(ex::replay({alloc(1, 10), free_block(1), free_block(1)}),
                    std::invalid_argument);
    // An id may be reused once its block is freed.
    const auto r = ex::replay({alloc(1, 10), free_block(1), alloc(1, 20)});
    CHECK(r.allocated == 20);
}
