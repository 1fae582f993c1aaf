/// @file global_accuracy_test.cpp
/// @brief Tests of exercise global_accuracy, built against the learner's file and the solution.
/// Ranks are threads of this process (ranks.h).
#include "global_accuracy.h"

#include "ranks.h"

#include "tl_test/catch.h"

#include <stdexcept>

namespace {

/// Every rank's answer, with rank r scoring counts[r] = {correct, count}.
std::vector<double> accuracy_of(const std::vector<std::pair<std::int64_t, std::int64_t>>& counts) {
    return ranks::run<double>(
        static_cast<int>(counts.size()), [&](int rank, c10d::ProcessGroup& group) {
            const auto [correct, count] = counts[static_cast<std::size_t>(rank)];
            return ex::global_accuracy(correct, count, group);
        });
}

}  // namespace

TEST_CASE("equal shards: the job's accuracy, on every rank", "[task_4]") {
    const auto accuracy = accuracy_of({{3, 4}, {1, 4}});
    CHECK(accuracy[0] == Catch::Approx(0.5));
    CHECK(accuracy[1] == Catch::Approx(0.5));
}

TEST_CASE("unequal shards count every sample once, not every rank once", "[task_4]") {
    // 9 of 10 right on rank 0, 0 of 30 on rank 1: 9 of 40, not the mean of 90% and 0%.
    const auto accuracy = accuracy_of({{9, 10}, {0, 30}, {1, 10}});
    for (const double a : accuracy) {
        CHECK(a == Catch::Approx(10.0 / 50.0));
    }
}

TEST_CASE("a rank with an empty shard still gets the job's accuracy", "[task_4]") {
    // 0 of 0 on rank 1 is a valid count (its shard was empty), not an accuracy of 0 / 0.
    const auto accuracy = accuracy_of({{3, 4}, {0, 0}});
    CHECK(accuracy[0] == Catch::Approx(0.75));
    CHECK(accuracy[1] == Catch::Approx(0.75));
}

TEST_CASE("large counts stay exact", "[task_4]") {
    // 2^24 + 1 is the first whole number float32 cannot hold.
    constexpr std::int64_t kBig = (std::int64_t{1} << 24) + 1;
    const auto accuracy = accuracy_of({{kBig, kBig}, {0, 1}});
    CHECK(accuracy[0] == static_cast<double>(kBig) / static_cast<double>(kBig + 1));
    CHECK(accuracy[0] < 1.0);
}

TEST_CASE("impossible counts, and a job with no sample, are refused", "[task_4]") {
    CHECK_THROWS_AS(accuracy_of({{5, 4}, {5, 4}}), std::invalid_argument);
    CHECK_THROWS_AS(accuracy_of({{-1, 4}, {-1, 4}}), std::invalid_argument);
    CHECK_THROWS_AS(accuracy_of({{0, 0}, {0, 0}}), std::invalid_argument);
}
