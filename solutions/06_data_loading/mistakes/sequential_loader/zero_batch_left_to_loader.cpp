// Mistake: Leaves a batch size of 0 to the loader
// The caller must get std::invalid_argument before any loader exists, not whatever the loader
// does with a batch size of 0.
#include "sequential_loader.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace ex {

std::size_t expected_batch_count(std::size_t samples, std::size_t batch_size, bool drop_last) {
    // A zero batch size would divide by zero here and never finish an epoch in a loader.
    if (batch_size == 0) {
        throw std::invalid_argument("expected_batch_count: batch_size must be at least 1, got 0");
    }
    // drop_last keeps full batches only; otherwise the remainder makes one short batch.
    return drop_last ? samples / batch_size : (samples + batch_size - 1) / batch_size;
}

std::vector<at::Tensor> targets_in_order(LabeledTensors dataset, std::size_t batch_size,
                                         bool drop_last, std::size_t workers) {
    // Checked here, before the loader exists, so the caller gets a plain invalid_argument.
    // SequentialSampler: the default RandomSampler would shuffle; enforce_ordering (true by
    // default, said out loud here) makes batches from worker threads arrive in sampler order.
    auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        std::move(dataset).map(torch::data::transforms::Stack<>()), torch::data::DataLoaderOptions()
                                                                        .batch_size(batch_size)
                                                                        .drop_last(drop_last)
                                                                        .workers(workers)
                                                                        .enforce_ordering(true));
    std::vector<at::Tensor> targets;
    // Stack<> made each batch one Example whose target is [batch]; keep them in arrival order.
    for (auto& batch : *loader) {
        targets.push_back(batch.target);
    }
    return targets;
}

}  // namespace ex
