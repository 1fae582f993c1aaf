/// @file synthetic_dataset.h
/// @brief Exercise synthetic_dataset: the API the learner's file implements and the tests call.
#pragma once

#include <torch/data/datasets/base.h>
#include <torch/data/example.h>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace ex {

/// A map-style dataset of `count` made-up samples, the same on every run and every machine.
///
/// Sample i is (data, target): target is the int64 scalar i % classes; data is a float32 vector
/// of `features` values, each target + noise, the noise drawn from a random generator created
/// for THIS sample from (seed, i) alone, with a standard deviation of 0.1. Hence get(i) returns
/// the same sample whatever calls came before it, and in whatever thread it runs — which is what
/// a loader with worker threads needs.
class SyntheticDataset : public torch::data::datasets::Dataset<SyntheticDataset> {
  public:
    /// A dataset of `count` samples of `features` values in `classes` classes.
    SyntheticDataset(std::size_t count, std::uint64_t seed, std::int64_t features = 8,
                     std::int64_t classes = 4)
        : count_(count), seed_(seed), features_(features), classes_(classes) {}

    /// Sample `index`, as described above.
    /// @throws std::out_of_range if index >= the dataset's size (the message names both).
    torch::data::Example<> get(std::size_t index) override;

    /// The number of samples (always known for this dataset).
    std::optional<std::size_t> size() const override;

  private:
    std::size_t count_;
    std::uint64_t seed_;
    std::int64_t features_;
    std::int64_t classes_;
};

}  // namespace ex
