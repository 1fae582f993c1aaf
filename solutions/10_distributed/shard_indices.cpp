/// @file shard_indices.cpp
/// @brief Solution of shard_indices (lesson 10): a distributed sampler's share for one rank.
#include "shard_indices.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/randperm.h>

#include <stdexcept>
#include <string>

namespace ex {

std::vector<std::int64_t> shard_indices(std::int64_t size, int rank, int world_size,
                                        std::uint64_t seed, std::int64_t epoch) {
    if (size < 1 || world_size < 1 || rank < 0 || rank >= world_size) {
        throw std::invalid_argument(
            "shard_indices: expected size >= 1, world_size >= 1 and "
            "0 <= rank < world_size, got size " +
            std::to_string(size) + ", rank " + std::to_string(rank) + ", world_size " +
            std::to_string(world_size));
    }
    // The same seed on every rank: one shared order, so the shards are disjoint. The epoch in
    // the seed: a new order each epoch.
    auto generator =
        at::make_generator<at::CPUGeneratorImpl>(seed + static_cast<std::uint64_t>(epoch));
    const auto order = at::randperm(size, generator, at::kLong);
    const auto* values = order.data_ptr<std::int64_t>();
    // Padding by wrapping round gives every rank as many samples, hence as many steps.
    const std::int64_t per_rank = (size + world_size - 1) / world_size;
    std::vector<std::int64_t> mine;
    mine.reserve(static_cast<std::size_t>(per_rank));
    for (std::int64_t i = rank; i < per_rank * world_size; i += world_size) {
        mine.push_back(values[i % size]);
    }
    return mine;
}

}  // namespace ex
