/// @file snapshot_resume.cpp
/// @brief Solution of exercise snapshot_resume (lesson 10).
#include "snapshot_resume.h"

#include <torch/serialize/archive.h>

#include <filesystem>

namespace ex {

void save_snapshot(const std::string& dir, int rank, const Progress& next, torch::nn::Module& model,
                   torch::optim::Optimizer& optimizer) {
    if (rank != 0) {
        return;  // the replicas are equal: one writer, and no two processes on one file
    }
    torch::serialize::OutputArchive archive;
    archive.write("step", c10::IValue(next.step));
    archive.write("epoch", c10::IValue(next.epoch));  // the sampler's shuffle of that step
    torch::serialize::OutputArchive weights;
    model.save(weights);  // parameters and buffers
    archive.write("model", weights);
    torch::serialize::OutputArchive state;
    optimizer.save(state);  // momentum and the like: the next step depends on them
    archive.write("optimizer", state);
    const auto folder = std::filesystem::path(dir);
    const auto temp = folder / "snapshot.pt.tmp";
    archive.save_to(temp.string());
    // rename() replaces the name in one go: snapshot.pt is the old file or the new one.
    std::filesystem::rename(temp, folder / "snapshot.pt");
}

std::optional<Progress> load_snapshot(const std::string& dir, torch::nn::Module& model,
                                      torch::optim::Optimizer& optimizer) {
    const auto path = std::filesystem::path(dir) / "snapshot.pt";
    if (!std::filesystem::exists(path)) {
        return std::nullopt;
    }
    torch::serialize::InputArchive archive;
    archive.load_from(path.string());
    torch::serialize::InputArchive weights;
    archive.read("model", weights);
    model.load(weights);
    torch::serialize::InputArchive state;
    archive.read("optimizer", state);
    optimizer.load(state);
    c10::IValue value;
    Progress progress;
    archive.read("step", value);
    progress.step = value.toInt();  // the next step to run, as saved: not one more
    archive.read("epoch", value);
    progress.epoch = value.toInt();
    return progress;
}

}  // namespace ex
