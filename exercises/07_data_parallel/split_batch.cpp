/// @file split_batch.cpp
/// @brief Exercise split_batch (lesson 07): cut a batch into one shard per device.
///
/// Data parallelism starts by scattering: a batch of B rows becomes N shards of near-equal size,
/// one per device, in order, none of them empty. Write the sizes first, then the split.
/// Check it with: ./torchlings check split_batch      Stuck? ./torchlings hint split_batch
#include "split_batch.h"

#include <torchlings/exercise.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ex {

std::vector<std::int64_t> shard_sizes(std::int64_t batch, std::int64_t n) {
    // TODO: throw std::invalid_argument when batch < 1 or n < 1 (say what was expected and got).
    // TODO: use min(batch, n) shards, so that none is empty.
    // TODO: give every shard batch / shards rows, and one more to each of the first
    //       batch % shards shards.
    (void)batch;
    (void)n;
    TL_TODO("shard_sizes: near-equal sizes, the remainder to the first shards");
}

std::vector<at::Tensor> split_batch(const at::Tensor& batch, std::int64_t n) {
    // TODO: reject a 0-dim tensor with std::invalid_argument.
    // TODO: split along dimension 0 into views of the sizes shard_sizes(batch.size(0), n) gives.
    (void)batch;
    (void)n;
    TL_TODO("split_batch: split_with_sizes along dimension 0");
}

}  // namespace ex
