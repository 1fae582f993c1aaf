/// @file labeled_tensors.h
/// @brief A small in-memory dataset of (input, target) rows, and the ordered loader type over it,
/// shared by the exercises sequential_loader and batches_to_device.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>
#include <torch/data/dataloader.h>
#include <torch/data/datasets/base.h>
#include <torch/data/datasets/map.h>
#include <torch/data/example.h>
#include <torch/data/samplers/sequential.h>
#include <torch/data/transforms/stack.h>

#include <cstddef>
#include <optional>
#include <utility>

namespace ex {

/// Row i of `inputs` with element i of `targets`: the C++ twin of Python's TensorDataset(x, y).
class LabeledTensors : public torch::data::datasets::Dataset<LabeledTensors> {
  public:
    /// @throws c10::Error if the two tensors do not have the same number of rows.
    LabeledTensors(at::Tensor inputs, at::Tensor targets)
        : inputs_(std::move(inputs)), targets_(std::move(targets)) {
        TORCH_CHECK(
            inputs_.dim() >= 1 && targets_.dim() >= 1 && inputs_.size(0) == targets_.size(0),
            "LabeledTensors: expected inputs and targets with the same number of rows, got ",
            inputs_.sizes(), " and ", targets_.sizes());
    }

    /// Sample `index`: (inputs[index], targets[index]). Indexing shares memory, copies nothing.
    torch::data::Example<> get(std::size_t index) override {
        const auto i = static_cast<int64_t>(index);
        return {inputs_[i], targets_[i]};
    }

    /// The number of rows.
    std::optional<std::size_t> size() const override {
        return static_cast<std::size_t>(inputs_.size(0));
    }

  private:
    at::Tensor inputs_;
    at::Tensor targets_;
};

/// The loader that make_data_loader<SequentialSampler>(LabeledTensors(...).map(Stack<>()), ...)
/// returns (make_data_loader wraps it in a std::unique_ptr).
using OrderedLoader = torch::data::StatelessDataLoader<
    torch::data::datasets::MapDataset<LabeledTensors, torch::data::transforms::Stack<>>,
    torch::data::samplers::SequentialSampler>;

}  // namespace ex
