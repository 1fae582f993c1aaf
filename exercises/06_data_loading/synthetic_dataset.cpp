/// @file synthetic_dataset.cpp
/// @brief Exercise synthetic_dataset (lesson 06): a custom Dataset, deterministic from a seed.
///
/// A map-style Dataset answers two questions: how many samples (size) and "give me sample i"
/// (get). A loader with worker threads calls get() from several threads, in any order, so each
/// sample must be made from (seed, index) alone — never from a random state shared between calls.
/// Check it with: ./torchlings check synthetic_dataset      Stuck? ./torchlings hint
/// synthetic_dataset
#include "synthetic_dataset.h"

#include <torchlings/exercise.h>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/scalar_tensor.h>

#include <stdexcept>
#include <string>

namespace ex {

torch::data::Example<> SyntheticDataset::get(std::size_t index) {
    // TODO: throw std::out_of_range (naming the index and the size) if index >= count_.
    // TODO: make a generator for this sample only, seeded from seed_ and index:
    //       at::make_generator<at::CPUGeneratorImpl>(some mix of seed_ and index).
    // TODO: the target is index % classes_ as an int64 scalar tensor; the data is
    //       target + 0.1 * randn({features_}) drawn from that generator (float32).
    (void)index;
    TL_TODO(
        "SyntheticDataset::get: check the index, seed a generator from (seed, index), "
        "return {data, target}");
}

std::optional<std::size_t> SyntheticDataset::size() const {
    // TODO: return the number of samples.
    TL_TODO("SyntheticDataset::size: return count_");
}

}  // namespace ex
