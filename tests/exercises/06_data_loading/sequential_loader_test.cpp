/// @file sequential_loader_test.cpp
/// @brief Tests of exercise sequential_loader, built against the learner's file and the solution.
#include "sequential_loader.h"

#include <tl_test/tensors.h>

#include <stdexcept>
#include <vector>

namespace {

// n rows of 3 features; target i is 10 * i, so the order of the targets shows the sample order.
ex::LabeledTensors tens(int64_t n) {
    return {torch::randn({n, 3}), torch::arange(n, torch::kInt64) * 10};
}

}  // namespace

TEST_CASE("the batch count rounds up without drop_last", "[task_1]") {
    CHECK(ex::expected_batch_count(100, 32, false) == 4);
    CHECK(ex::expected_batch_count(96, 32, false) == 3);
    CHECK(ex::expected_batch_count(1, 32, false) == 1);
    CHECK(ex::expected_batch_count(0, 32, false) == 0);
}

TEST_CASE("the batch count rounds down with drop_last", "[task_1]") {
    CHECK(ex::expected_batch_count(100, 32, true) == 3);
    CHECK(ex::expected_batch_count(96, 32, true) == 3);
    CHECK(ex::expected_batch_count(10, 32, true) == 0);
}

TEST_CASE("a batch size of zero is rejected", "[task_1]") {
    CHECK_THROWS_AS(ex::expected_batch_count(10, 0, false), std::invalid_argument);
    CHECK_THROWS_AS(ex::targets_in_order(tens(4), 0, false, 0), std::invalid_argument);
}

TEST_CASE("batches come in index order with a short last batch", "[task_2]") {
    const auto batches = ex::targets_in_order(tens(10), 4, /*drop_last=*/false, 0);
    REQUIRE(batches.size() == 3);
    TL_CHECK_TENSOR_CLOSE(batches[0], torch::tensor({0, 10, 20, 30}, torch::kInt64));
    TL_CHECK_TENSOR_CLOSE(batches[1], torch::tensor({40, 50, 60, 70}, torch::kInt64));
    TL_CHECK_TENSOR_CLOSE(batches[2], torch::tensor({80, 90}, torch::kInt64));
}

TEST_CASE("drop_last drops the short final batch", "[task_2]") {
    const auto batches = ex::targets_in_order(tens(10), 4, /*drop_last=*/true, 0);
    REQUIRE(batches.size() == 2);
    TL_CHECK_TENSOR_CLOSE(batches[1], torch::tensor({40, 50, 60, 70}, torch::kInt64));
}

TEST_CASE("the order holds with worker threads", "[task_2]") {
    // Targets in a scrambled order: an ordered loader must return exactly this sequence.
    torch::manual_seed(3);
    const auto targets = torch::randperm(60, torch::kInt64);
    const auto batches = ex::targets_in_order({torch::randn({60, 2}), targets}, 7,
                                              /*drop_last=*/false, /*workers=*/3);
    CHECK(batches.size() == ex::expected_batch_count(60, 7, false));
    REQUIRE_FALSE(batches.empty());
    TL_CHECK_TENSOR_CLOSE(torch::cat(batches), targets);
}

TEST_CASE("every batch is one stacked tensor of the batch size", "[task_2]") {
    const auto batches = ex::targets_in_order(tens(9), 3, /*drop_last=*/false, 2);
    REQUIRE(batches.size() == 3);
    for (const auto& batch : batches) {
        CHECK(batch.sizes() == torch::IntArrayRef({3}));
    }
}

TEST_CASE("a short last batch finished first still comes last", "[task_2]") {
    // Two workers: one stacks a full batch of 1500 rows of 8000 floats (48 MB), the other the
    // short last batch of one row, done long before. Only an ordered loader hands them out in
    // sampler order; one that hands out batches as they finish gives the short one first.
    const int64_t rows = 1501;
    const auto targets = torch::arange(rows, torch::kInt64);
    for (int epoch = 0; epoch < 3; ++epoch) {
        const auto batches = ex::targets_in_order({torch::zeros({rows, 8000}), targets}, 1500,
                                                  /*drop_last=*/false, /*workers=*/2);
        REQUIRE(batches.size() == 2);
        CHECK(batches[0].size(0) == 1500);
        CHECK(batches[1].size(0) == 1);
    }
}
