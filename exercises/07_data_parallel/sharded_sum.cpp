/// @file sharded_sum.cpp
/// @brief Exercise sharded_sum (lesson 07): spread a reduction over several devices.
///
/// One device summing a whole tensor does all the work alone. Here each device sums its own
/// shard, and only the partial sums travel: they are gathered on one device and added up there.
/// Check it with: ./torchlings check sharded_sum      Stuck? ./torchlings hint sharded_sum
#include "sharded_sum.h"

#include <torchlings/exercise.h>

#include <ATen/ops/stack.h>
#include <ATen/ops/zeros.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ex {

at::Tensor sharded_sum(const at::Tensor& x, const std::vector<c10::Device>& devices,
                       const c10::Device& home) {
    // TODO: throw std::invalid_argument when there is no device.
    // TODO: an empty x sums to a zero on home, in x.sum()'s dtype (int64 for integers and bool).
    // TODO: cut the flattened x into min(numel, devices.size()) near-equal shards, in order.
    // TODO: copy shard i to devices[i] and sum it there; then copy each partial sum to home.
    // TODO: add the partial sums up on home, and return that 0-dim tensor.
    (void)x;
    (void)devices;
    (void)home;
    TL_TODO("sharded_sum: sum each shard on its device, then the partial sums on home");
}

}  // namespace ex
