/// @file sequential_loader.cpp
/// @brief Exercise sequential_loader (lesson 06): a loader that keeps the dataset's order.
///
/// torch::data::make_data_loader(dataset, options) SHUFFLES by default (its sampler is a
/// RandomSampler), unlike Python's DataLoader. Evaluation, debugging and tests want the order of
/// the dataset: ask for a SequentialSampler, and let the loader keep the order even when worker
/// threads finish batches out of order.
/// Check it with: ./torchlings check sequential_loader      Stuck? ./torchlings hint
/// sequential_loader
#include "sequential_loader.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

std::size_t expected_batch_count(std::size_t samples, std::size_t batch_size, bool drop_last) {
    // TODO: reject batch_size == 0 with std::invalid_argument.
    // TODO: full batches only with drop_last; otherwise one more for a short remainder.
    (void)samples;
    (void)batch_size;
    (void)drop_last;
    TL_TODO("expected_batch_count: divide, rounding down (drop_last) or up");
}

std::vector<at::Tensor> targets_in_order(LabeledTensors dataset, std::size_t batch_size,
                                         bool drop_last, std::size_t workers) {
    // TODO: reject batch_size == 0 with std::invalid_argument.
    // TODO: build the loader: make_data_loader<torch::data::samplers::SequentialSampler>(
    //       std::move(dataset).map(torch::data::transforms::Stack<>()),
    //       torch::data::DataLoaderOptions() with batch_size, drop_last, workers, and
    //       enforce_ordering(true)).
    // TODO: loop over *loader and collect each batch's target.
    (void)dataset;
    (void)batch_size;
    (void)drop_last;
    (void)workers;
    TL_TODO("targets_in_order: a SequentialSampler loader, then collect batch.target");
}

}  // namespace ex
