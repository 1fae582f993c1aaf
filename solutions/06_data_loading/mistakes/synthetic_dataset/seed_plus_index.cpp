// Mistake: Seeds each sample with seed + index
// Then sample 1 of seed 1 is sample 0 of seed 2: two datasets meant to differ share samples.
// The tests compare exactly those two.
#include "synthetic_dataset.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/scalar_tensor.h>

#include <stdexcept>
#include <string>

namespace ex {

torch::data::Example<> SyntheticDataset::get(std::size_t index) {
    // The loader trusts get(): an index past the end must fail loudly, not read garbage.
    if (index >= count_) {
        throw std::out_of_range("SyntheticDataset::get: index " + std::to_string(index) +
                                " is past the end (size " + std::to_string(count_) + ")");
    }
    // One generator per sample, seeded from (seed, index) only: thread- and order-independent.
    // The odd multiplier spreads seeds apart so that (seed, index + 1) != (seed + 1, index).
    auto generator = at::make_generator<at::CPUGeneratorImpl>(seed_ + index);
    const auto label = static_cast<int64_t>(index % static_cast<std::size_t>(classes_));
    // Scalar int64 targets stack into the [batch] vector that cross_entropy expects.
    auto target = at::scalar_tensor(label, at::TensorOptions().dtype(at::kLong));
    auto data = at::randn({features_}, generator) * 0.1 + static_cast<double>(label);
    return {data, target};
}

std::optional<std::size_t> SyntheticDataset::size() const {
    // Known up front: samplers need it to build their index lists.
    return count_;
}

}  // namespace ex
