/// @file data_parallel_step.h
/// @brief Exercise data_parallel_step: the API the learner's file implements and the tests call.
#pragma once

#include "mlp.h"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <torch/optim/optimizer.h>

#include <vector>

namespace ex {

/// One hand-built data-parallel training step over `devices` (the same device may repeat):
///  1. split `inputs` [B, features] and `targets` [B] (class indices) into min(B, devices.size())
///     near-equal shards, in order, the first B % shards ones a row longer;
///  2. replicate `model` onto the first `shards` devices (an independent deep copy each);
///  3. on one thread per shard, move the shard to its device, compute the cross-entropy loss
///     (mean over the shard) of the replica's output, and run backward on it;
///  4. set `model`'s gradients to the replicas' gradients averaged with weights proportional to
///     shard size, on `model`'s device;
///  5. call optimizer.step() (the optimizer holds `model`'s parameters).
/// The result matches one single-device step on the whole batch, up to rounding.
/// @returns the mean loss over the whole batch, before the step (the shard losses weighted by
///          shard size).
/// @throws std::invalid_argument if `devices` is empty, or if inputs and targets do not have the
///         same number (>= 1) of rows. An exception thrown on a shard's thread is rethrown.
double data_parallel_step(Mlp& model, torch::optim::Optimizer& optimizer, const at::Tensor& inputs,
                          const at::Tensor& targets, const std::vector<c10::Device>& devices);

}  // namespace ex
