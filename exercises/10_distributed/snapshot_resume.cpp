/// @file snapshot_resume.cpp
/// @brief Exercise snapshot_resume (lesson 10): write a snapshot a restarted job can resume from.
///
/// torchrun --max-restarts restarts every process of a job that lost one; all they had in memory
/// is gone. Rank 0 saves what the next step depends on, whole or not at all, and at start every
/// rank loads it and carries on where the job stood.
/// Check it with: ./torchlings check snapshot_resume      Stuck? ./torchlings hint snapshot_resume
#include "snapshot_resume.h"

#include <torchlings/exercise.h>

#include <torch/serialize/archive.h>

#include <filesystem>

namespace ex {

void save_snapshot(const std::string& dir, int rank, const Progress& next, torch::nn::Module& model,
                   torch::optim::Optimizer& optimizer) {
    // TODO: only rank 0 writes; every other rank returns at once.
    // TODO: one torch::serialize::OutputArchive holding next.step, next.epoch (c10::IValue), the
    //       model (model.save into an archive of its own) and the optimizer (optimizer.save).
    // TODO: save it to a temporary file in dir, then rename that over dir/snapshot.pt.
    (void)dir;
    (void)rank;
    (void)next;
    (void)model;
    (void)optimizer;
    TL_TODO("save_snapshot: rank 0 writes everything the next step needs, then renames");
}

std::optional<Progress> load_snapshot(const std::string& dir, torch::nn::Module& model,
                                      torch::optim::Optimizer& optimizer) {
    // TODO: no dir/snapshot.pt: return std::nullopt.
    // TODO: load it (torch::serialize::InputArchive), then the model and the optimizer from
    //       their archives.
    // TODO: return the step and the epoch exactly as they were saved.
    (void)dir;
    (void)model;
    (void)optimizer;
    TL_TODO("load_snapshot: load the model, the optimizer and the progress");
}

}  // namespace ex
