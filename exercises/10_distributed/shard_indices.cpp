/// @file shard_indices.cpp
/// @brief Exercise shard_indices (lesson 10): a distributed sampler's share for one rank.
///
/// Every process of a data-parallel job reads the same data set; a distributed sampler decides
/// which samples each rank trains on, so that together the ranks see every sample once per epoch
/// and each sees as many as the others.
/// Check it with: ./torchlings check shard_indices      Stuck? ./torchlings hint shard_indices
#include "shard_indices.h"

#include <torchlings/exercise.h>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/randperm.h>

#include <stdexcept>
#include <string>

namespace ex {

std::vector<std::int64_t> shard_indices(std::int64_t size, int rank, int world_size,
                                        std::uint64_t seed, std::int64_t epoch) {
    // TODO: check the arguments (see the header); throw std::invalid_argument naming them.
    // TODO: shuffle 0 .. size - 1 with a generator that every rank seeds the same way for this
    //       epoch: at::make_generator<at::CPUGeneratorImpl>(...) and at::randperm.
    // TODO: pad the order by wrapping round to a multiple of world_size, and return every
    //       world_size-th entry starting at rank.
    (void)size;
    (void)rank;
    (void)world_size;
    (void)seed;
    (void)epoch;
    TL_TODO("shard_indices: shuffle the same way on every rank, pad, then take every n-th");
}

}  // namespace ex
