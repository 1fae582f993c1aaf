/// @file sharded_sum.h
/// @brief Exercise sharded_sum: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <vector>

namespace ex {

/// The sum of every element of `x` (any shape, on any device), as x.sum() gives it, with the
/// work spread over `devices`:
///  1. flatten x and cut it into min(x.numel(), devices.size()) contiguous shards, in order,
///     near-equal (the first numel % shards ones an element longer): no shard is empty, and a
///     device that would get nothing gets no work at all;
///  2. copy shard i to devices[i] and sum it there: each device reduces its own shard, and its
///     partial sum stays on it;
///  3. copy the partial sums to `home` and add them up there.
/// `devices` may repeat a device, and `home` may be one of them or not.
/// @returns a 0-dim tensor on `home` in x.sum()'s dtype: int64 for integer and bool inputs, x's
///          own for floating-point ones. An empty x gives a zero of that dtype, with no work on
///          any device.
/// @throws std::invalid_argument if `devices` is empty.
at::Tensor sharded_sum(const at::Tensor& x, const std::vector<c10::Device>& devices,
                       const c10::Device& home);

}  // namespace ex
