/// @file sequential_loader.h
/// @brief Exercise sequential_loader: the API the learner's file implements and the tests call.
#pragma once

#include "labeled_tensors.h"

#include <ATen/core/Tensor.h>

#include <cstddef>
#include <vector>

namespace ex {

/// How many batches one epoch over `samples` samples yields with batches of `batch_size`: the
/// last, short batch counts unless `drop_last` is true.
/// @throws std::invalid_argument if batch_size is 0.
std::size_t expected_batch_count(std::size_t samples, std::size_t batch_size, bool drop_last);

/// Runs one epoch over `dataset` IN INDEX ORDER (not the C++ default, which shuffles), batched
/// with Stack<>, with the given batch size, drop_last and number of worker threads, and returns
/// each batch's stacked targets, in the order the loop received them.
/// @throws std::invalid_argument if batch_size is 0.
std::vector<at::Tensor> targets_in_order(LabeledTensors dataset, std::size_t batch_size,
                                         bool drop_last, std::size_t workers);

}  // namespace ex
