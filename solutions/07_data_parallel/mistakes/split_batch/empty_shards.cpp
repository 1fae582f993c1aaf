// Mistake: Makes n shards even when there are fewer rows
// With 3 rows over 5 devices two shards are empty, and the mean loss of an empty shard is
// NaN. min(batch, n) shards, never an empty one.
#include "split_batch.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ex {

std::vector<std::int64_t> shard_sizes(std::int64_t batch, std::int64_t n) {
    if (batch < 1 || n < 1) {
        throw std::invalid_argument("shard_sizes: expected batch >= 1 and n >= 1, got batch " +
                                    std::to_string(batch) + " and n " + std::to_string(n));
    }
    // More shards than rows would leave some empty: an empty shard's mean loss is NaN.
    const std::int64_t shards = n;
    const std::int64_t base = batch / shards;
    const std::int64_t extra = batch % shards;
    std::vector<std::int64_t> sizes;
    sizes.reserve(static_cast<std::size_t>(shards));
    for (std::int64_t i = 0; i < shards; ++i) {
        // The remainder goes one row each to the first shards, so sizes differ by at most one.
        sizes.push_back(base + (i < extra ? 1 : 0));
    }
    return sizes;
}

std::vector<at::Tensor> split_batch(const at::Tensor& batch, std::int64_t n) {
    if (batch.dim() == 0) {
        throw std::invalid_argument(
            "split_batch: expected a tensor with a batch dimension, got a 0-dim tensor");
    }
    const auto sizes = shard_sizes(batch.size(0), n);
    // split_with_sizes returns views in order: no copy until a shard moves to its device.
    return batch.split_with_sizes(sizes, 0);
}

}  // namespace ex
