/// @file synthetic_dataset_test.cpp
/// @brief Tests of exercise synthetic_dataset, built against the learner's file and the solution.
#include "synthetic_dataset.h"

#include <tl_test/tensors.h>

#include <torch/data/dataloader.h>
#include <torch/data/samplers/sequential.h>
#include <torch/data/transforms/stack.h>

#include <stdexcept>
#include <vector>

TEST_CASE("size reports the sample count", "[task_1]") {
    const ex::SyntheticDataset dataset(37, 1);
    REQUIRE(dataset.size().has_value());
    CHECK(*dataset.size() == 37);
    CHECK(*ex::SyntheticDataset(0, 1).size() == 0);
}

TEST_CASE("a sample has the documented shape dtype and label", "[task_1]") {
    ex::SyntheticDataset dataset(20, 3, /*features=*/5, /*classes=*/3);
    for (const std::size_t index : {0, 1, 2, 7, 19}) {
        INFO("index " << index);
        const auto sample = dataset.get(index);
        REQUIRE(sample.data.defined());
        REQUIRE(sample.target.defined());
        CHECK(sample.data.sizes() == torch::IntArrayRef({5}));
        CHECK(sample.data.scalar_type() == torch::kFloat32);
        CHECK(sample.target.dim() == 0);
        CHECK(sample.target.scalar_type() == torch::kInt64);
        CHECK(sample.target.item<int64_t>() == static_cast<int64_t>(index % 3));
    }
}

TEST_CASE("data is its label plus small noise", "[task_1]") {
    ex::SyntheticDataset dataset(10, 5, /*features=*/64, /*classes=*/4);
    const auto sample = dataset.get(6);
    const auto noise = sample.data - sample.target.to(torch::kFloat32);
    // A standard deviation of 0.1 over 64 values: far inside these bounds, and not constant.
    CHECK(noise.abs().max().item<float>() < 1.0F);
    CHECK(noise.std().item<float>() > 0.02F);
    CHECK(noise.std().item<float>() < 0.3F);
}

TEST_CASE("the same seed and index give the same sample", "[task_2]") {
    ex::SyntheticDataset a(10, 42);
    ex::SyntheticDataset b(10, 42);
    TL_CHECK_TENSOR_CLOSE(a.get(4).data, b.get(4).data);
    TL_CHECK_TENSOR_CLOSE(a.get(4).data, a.get(4).data);
}

TEST_CASE("a sample does not depend on the calls made before it", "[task_2]") {
    ex::SyntheticDataset fresh(10, 9);
    const auto expected = fresh.get(5).data;
    ex::SyntheticDataset used(10, 9);
    (void)used.get(3);
    (void)used.get(9);
    (void)used.get(3);
    TL_CHECK_TENSOR_CLOSE(used.get(5).data, expected);
}

TEST_CASE("different seeds or indices give different data", "[task_2]") {
    ex::SyntheticDataset a(10, 1, /*features=*/8, /*classes=*/1);
    ex::SyntheticDataset b(10, 2, /*features=*/8, /*classes=*/1);
    // One class: every target is 0, so only the noise can tell these samples apart.
    CHECK_FALSE(a.get(0).data.equal(b.get(0).data));
    CHECK_FALSE(a.get(0).data.equal(a.get(1).data));
    // A seed of seed + index would make (seed 1, index 1) the same sample as (seed 2, index 0).
    CHECK_FALSE(a.get(1).data.equal(b.get(0).data));
    // And seed ^ index would make (seed 1, index 3) the same sample as (seed 2, index 0).
    CHECK_FALSE(a.get(3).data.equal(b.get(0).data));
}

TEST_CASE("get leaves the global random generator alone", "[task_2]") {
    // Seeding the global generator inside get() is deterministic in one thread, but worker
    // threads share that generator, and the caller's own random numbers change with it.
    torch::manual_seed(123);
    const auto expected = torch::randn({4});
    torch::manual_seed(123);
    ex::SyntheticDataset dataset(10, 5);
    const auto sample = dataset.get(2);
    CHECK(sample.data.sizes() == torch::IntArrayRef({8}));
    TL_CHECK_TENSOR_CLOSE(torch::randn({4}), expected);
}

TEST_CASE("an index past the end throws out_of_range", "[task_3]") {
    ex::SyntheticDataset dataset(4, 1);
    CHECK_THROWS_AS(dataset.get(4), std::out_of_range);
    CHECK_THROWS_AS(dataset.get(1000), std::out_of_range);
    CHECK_NOTHROW(dataset.get(3));
}

TEST_CASE("a loader with two workers sees the same samples as get", "[task_3]") {
    ex::SyntheticDataset direct(24, 11);
    std::vector<torch::Tensor> expected;
    for (std::size_t i = 0; i < 24; ++i) {
        expected.push_back(direct.get(i).data);
    }
    auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        ex::SyntheticDataset(24, 11).map(torch::data::transforms::Stack<>()),
        torch::data::DataLoaderOptions().batch_size(4).workers(2));
    std::vector<torch::Tensor> seen;
    for (auto& batch : *loader) {
        seen.push_back(batch.data);
    }
    TL_CHECK_TENSOR_CLOSE(torch::cat(seen), torch::stack(expected));
}
