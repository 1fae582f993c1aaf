/// @file average_gradients.h
/// @brief Exercise average_gradients: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace ex {

/// Reduces the replicas' gradients into the original model. `originals` are the original model's
/// parameters (model->parameters()), `replicas[r]` replica r's parameters in the same order, and
/// `shard_sizes[r]` the number of rows replica r saw. Each original parameter's gradient is
/// replaced by sum over r of (shard_sizes[r] / total rows) * replica r's gradient, on the original
/// parameter's device and in its dtype. With each replica's loss a mean over its shard, that is
/// exactly the gradient of the mean loss over the whole batch.
/// @throws std::invalid_argument if there are no replicas, if replicas and shard_sizes differ in
///         count, if a shard size is < 1, if a replica has another number of parameters than the
///         original, or if a replica's gradient is missing or of another shape.
void average_gradients(const std::vector<at::Tensor>& originals,
                       const std::vector<std::vector<at::Tensor>>& replicas,
                       const std::vector<std::int64_t>& shard_sizes);

}  // namespace ex
