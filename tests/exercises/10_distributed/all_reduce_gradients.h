/// @file all_reduce_gradients.h
/// @brief Exercise all_reduce_gradients: the API the learner's file implements and the tests call.
#pragma once

#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

#include <vector>

namespace ex {

/// Replaces each parameter's gradient by the mean of that gradient over the ranks of `group`,
/// with ONE all-reduce of all the gradients flattened. Called by every rank after its backward
/// pass, with its parameters in the same order and shapes.
/// @throws std::invalid_argument if a parameter has no gradient (before any collective).
void all_reduce_gradients(const std::vector<at::Tensor>& parameters, c10d::ProcessGroup& group);

}  // namespace ex
