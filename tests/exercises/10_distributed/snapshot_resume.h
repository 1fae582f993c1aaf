/// @file snapshot_resume.h
/// @brief Exercise snapshot_resume: the API the learner's file implements and the tests call.
#pragma once

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <cstdint>
#include <optional>
#include <string>

namespace ex {

/// Where a job stands between two steps: the next step to run, and the epoch the distributed
/// sampler shuffles for (its order depends on it).
struct Progress {
    std::int64_t step = 0;   ///< the next step to run (= the steps done)
    std::int64_t epoch = 0;  ///< the sampler's epoch of that step
};

/// Called by every rank after a step: rank 0 alone writes `dir`/snapshot.pt, holding the model's
/// parameters and buffers, the optimizer's state and `next`. The file is written whole under
/// another name in `dir`, then renamed over snapshot.pt, so that a reader (or a restart after a
/// crash mid-write) finds the previous snapshot or the new one, never half of one. The other
/// ranks write nothing: their replicas are equal to rank 0's.
void save_snapshot(const std::string& dir, int rank, const Progress& next, torch::nn::Module& model,
                   torch::optim::Optimizer& optimizer);

/// Called by every rank at start: loads `dir`/snapshot.pt into `model` (parameters and buffers)
/// and `optimizer` (its state), and returns where to continue. std::nullopt, with nothing
/// changed, when there is no snapshot.pt yet.
std::optional<Progress> load_snapshot(const std::string& dir, torch::nn::Module& model,
                                      torch::optim::Optimizer& optimizer);

}  // namespace ex
