/// @file split_batch.h
/// @brief Exercise split_batch: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace ex {

/// The sizes of `n` near-equal shards of a batch of `batch` rows, in order: the first
/// `batch % n` shards get one row more than the others. No shard is ever empty: when n > batch
/// there are only `batch` shards, of one row each (a replica given no rows would compute the mean
/// of nothing, which is NaN).
/// @throws std::invalid_argument if batch < 1 or n < 1.
std::vector<std::int64_t> shard_sizes(std::int64_t batch, std::int64_t n);

/// Splits `batch` along dimension 0 into shards of shard_sizes(batch.size(0), n), in order.
/// The shards are views of `batch` (no copy): scattering them to devices is the only copy.
/// @throws std::invalid_argument if `batch` has no dimension or no rows, or if n < 1.
std::vector<at::Tensor> split_batch(const at::Tensor& batch, std::int64_t n);

}  // namespace ex
