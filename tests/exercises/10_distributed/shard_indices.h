/// @file shard_indices.h
/// @brief Exercise shard_indices: the API the learner's file implements and the tests call.
#pragma once

#include <cstdint>
#include <vector>

namespace ex {

/// The sample indices that rank `rank` of `world_size` trains on in epoch `epoch`, as PyTorch's
/// DistributedSampler deals them. All ranks shuffle 0 .. size - 1 the same way (a generator
/// seeded with seed + epoch, so that each epoch has its own order); the shuffled order is padded
/// by wrapping round to its start up to a multiple of world_size, so that every rank gets
/// ceil(size / world_size) indices; rank r takes entries r, r + world_size, r + 2 * world_size...
/// @throws std::invalid_argument if size < 1, world_size < 1, or rank is not in
///         [0, world_size).
std::vector<std::int64_t> shard_indices(std::int64_t size, int rank, int world_size,
                                        std::uint64_t seed, std::int64_t epoch);

}  // namespace ex
