/// @file global_accuracy.h
/// @brief Exercise global_accuracy: the API the learner's file implements and the tests call.
#pragma once

#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

#include <cstdint>

namespace ex {

/// The job's accuracy, the same on every rank: the sum over the ranks of `correct` divided by the
/// sum of `count` (each rank scored `count` samples, `correct` of them right).
/// @throws std::invalid_argument if correct < 0 or correct > count (before any collective), or
///         if no rank scored any sample.
double global_accuracy(std::int64_t correct, std::int64_t count, c10d::ProcessGroup& group);

}  // namespace ex
