/// @file broadcast_parameters.h
/// @brief Exercise broadcast_parameters: the API the learner's file implements and the tests call.
#pragma once

#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

#include <vector>

namespace ex {

/// Overwrites every parameter on every rank with rank 0's value, in one broadcast of all of
/// them flattened. Called by every rank of `group`, with its parameters in the same order and
/// shapes. The parameters stay the same tensors (leaves that require grad); only their values
/// change.
void broadcast_parameters(const std::vector<at::Tensor>& parameters, c10d::ProcessGroup& group);

}  // namespace ex
