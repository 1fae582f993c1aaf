/// @file restartable.cpp
/// @brief Lesson 10, section 8: training that survives a lost rank. Rank 0 writes a snapshot
/// every K steps (torchlings/snapshot.h: temporary file, rename, checksum, the folder's lock);
/// on start every rank resumes from the newest whole one, so that torchrun --max-restarts can
/// restart the group and the job still ends with an uninterrupted run's weights, bit for bit.
/// Run it: torchrun --standalone --nproc-per-node=2 --max-restarts=3 --no-python
///         build/dev/bin/lesson_10 --device cpu --snapshot-dir /tmp/lesson10-snapshots
#include "lesson10.h"

#include <torchlings/lesson.h>
#include <torchlings/snapshot.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

// The lesson's own pieces, not an API: kept out of the generated documentation.
/** @cond */
namespace lesson10 {
namespace {

using torchlings::print_field;
using torchlings::print_section;
using torchlings::scientific;

// --- 8. Surviving a lost rank: snapshots and restarts ---
// torchrun --max-restarts=N restarts the whole group when one process dies: every process begins
// again at main(), and everything in memory is gone. What the next step depends on must be on
// disk: parameters and buffers, the optimizer's state (here SGD's momentum), the step, and the
// sampler's epoch. Rank 0 writes it every K steps; on start every rank reads the newest snapshot
// that reads back whole. Same world size, same data order: the result is bitwise the same as a
// run that was never interrupted.

constexpr std::int64_t kStepsPerEpoch = kTrainSize / kGlobalBatch;
constexpr double kMomentum = 0.9;

/// The names and shapes of a model's parameters and buffers: a snapshot of another model is
/// refused by comparing these before a single value is copied.
std::string shapes_of(const torch::nn::Module& model) {
    std::ostringstream out;
    auto add = [&](const std::string& name, const at::Tensor& t) {
        out << (out.tellp() == 0 ? "" : " ") << name << t.sizes();
    };
    for (const auto& item : model.named_parameters()) {
        add(item.key(), item.value());
    }
    for (const auto& item : model.named_buffers()) {
        add(item.key(), item.value());
    }
    return out.str();
}

/// Everything step `step` (the next to run) depends on, as one torch archive in memory.
std::string snapshot_bytes(std::int64_t step, std::int64_t epoch, torch::nn::Module& model,
                           torch::optim::Optimizer& optimizer) {
    torch::serialize::OutputArchive archive;
    archive.write("step", c10::IValue(step));    // the steps done = the next step to run
    archive.write("epoch", c10::IValue(epoch));  // the sampler's epoch: its shuffle
    archive.write("sampler_seed", c10::IValue(static_cast<std::int64_t>(kSamplerSeed)));
    archive.write("shapes", c10::IValue(shapes_of(model)));
    torch::serialize::OutputArchive weights;
    model.save(weights);  // parameters and buffers
    archive.write("model", weights);
    torch::serialize::OutputArchive state;
    optimizer.save(state);  // SGD's momentum buffers: without them the next step differs
    archive.write("optimizer", state);
    std::ostringstream out;
    archive.save_to(out);
    return out.str();
}

/// Loads a snapshot into `model` and `optimizer`; returns {step, epoch}.
std::pair<std::int64_t, std::int64_t> load_snapshot(const torchlings::snap::Found& found,
                                                    torch::nn::Module& model,
                                                    torch::optim::Optimizer& optimizer,
                                                    c10::Device device) {
    torch::serialize::InputArchive archive;
    // Onto the model's device: Module::load would otherwise move a GPU parameter to the CPU.
    archive.load_from(found.payload.data(), found.payload.size(), device);
    c10::IValue value;
    archive.read("shapes", value);
    if (value.toStringRef() != shapes_of(model)) {
        throw torchlings::snap::SnapshotError(
            "snapshot " + found.path.string() + " belongs to another model (its parameters: " +
            value.toStringRef() + "; this model's: " + shapes_of(model) +
            "): give --snapshot-dir a folder of this model's own, or empty that one");
    }
    archive.read("sampler_seed", value);
    if (value.toInt() != static_cast<std::int64_t>(kSamplerSeed)) {
        throw torchlings::snap::SnapshotError(
            "snapshot " + found.path.string() + " was shuffled with sampler seed " +
            std::to_string(value.toInt()) + ", this job uses " + std::to_string(kSamplerSeed));
    }
    torch::serialize::InputArchive weights;
    archive.read("model", weights);
    model.load(weights);
    torch::serialize::InputArchive state;
    archive.read("optimizer", state);
    optimizer.load(state);
    archive.read("step", value);
    const auto step = value.toInt();
    archive.read("epoch", value);
    return {step, value.toInt()};
}

/// Rank 0 writes the final parameters as raw float32 bytes (temporary file, then rename): two
/// runs' files are equal byte for byte when their training was.
void write_weights(const torch::nn::Module& model, const std::string& path) {
    const auto flat = flat_parameters(model).cpu().contiguous();
    const std::string temp = path + ".tmp";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out.write(static_cast<const char*>(flat.data_ptr()),
                  static_cast<std::streamsize>(flat.numel() * flat.element_size()));
        if (!out) {
            throw std::runtime_error("cannot write the final weights to " + temp);
        }
    }
    std::filesystem::rename(temp, path);
}

void show_ranks(Job& job) {
    // Who is who across machines: GROUP_RANK is the agent's (the node's) number.
    auto mine = torch::tensor({static_cast<std::int64_t>(job.info.rank),
                               static_cast<std::int64_t>(job.info.local_rank),
                               static_cast<std::int64_t>(job.info.node_rank)});
    std::vector<std::vector<at::Tensor>> all(1);
    for (int r = 0; r < job.info.world_size; ++r) {
        all[0].push_back(torch::empty_like(mine));
    }
    std::vector<at::Tensor> in{mine};
    wait(job.group->allgather(all, in));
    if (job.leader()) {
        std::ostringstream out;
        for (const auto& t : all[0]) {
            out << (out.tellp() == 0 ? "" : ", ") << t[0].item<std::int64_t>() << " (node "
                << t[2].item<std::int64_t>() << ", local " << t[1].item<std::int64_t>() << ")";
        }
        print_field("Ranks", out.str());
    }
}

}  // namespace

void train_restartable(Job& job, const Data& train_set, const ResumeOptions& options) {
    namespace snap = torchlings::snap;
    const int world = job.info.world_size;
    if (kGlobalBatch % world != 0 || options.every < 1 || options.steps < 1 || options.hidden < 1) {
        throw std::invalid_argument(
            "--snapshot-every, --steps and --hidden must be >= 1, and the world size must divide "
            "the global batch of 120 (got every " +
            std::to_string(options.every) + ", steps " + std::to_string(options.steps) +
            ", hidden " + std::to_string(options.hidden) + ", world " + std::to_string(world) +
            ")");
    }
    if (job.leader()) {
        print_section("8. Training that survives a lost rank: snapshots and restarts");
    }
    show_ranks(job);
    // Rank 0 opens the folder as its writer (can it write? is another job using it?) before a
    // single step, and its verdict reaches every rank: all stop together, with its reason.
    std::unique_ptr<snap::SnapshotFolder> folder;
    std::string refusal;
    try {
        folder = std::make_unique<snap::SnapshotFolder>(options.dir, job.leader());
    } catch (const snap::SnapshotError& error) {
        refusal = error.what();
    }
    auto ok = torch::tensor({refusal.empty() ? 1.0F : 0.0F});
    all_reduce(job, ok, c10d::ReduceOp::MIN);
    if (ok.item<float>() == 0.0F) {
        throw snap::SnapshotError(job.leader() ? refusal
                                               : "rank 0 refused snapshot folder " + options.dir);
    }

    auto model = make_model(kFeatures, options.hidden, kClasses);
    model->to(job.device);
    torch::optim::SGD optimizer(model->parameters(),
                                torch::optim::SGDOptions(kLearningRate).momentum(kMomentum));
    std::int64_t start = 0;
    std::int64_t epoch = 0;
    const auto found = folder->newest([&](const std::string& line) {
        if (job.leader()) {
            std::cerr << line << std::endl;
        }
    });
    if (found) {
        std::tie(start, epoch) = load_snapshot(*found, *model, optimizer, job.device);
    } else {
        broadcast_parameters(job, *model);
    }
    // Every rank must resume from the same step, or the collectives pair different steps.
    auto steps = torch::tensor({static_cast<double>(start), -static_cast<double>(start)});
    all_reduce(job, steps, c10d::ReduceOp::MAX);
    if (steps[0].item<double>() != -steps[1].item<double>()) {
        throw snap::SnapshotError("the ranks found different snapshots in " + options.dir +
                                  " (steps " + std::to_string(-steps[1].item<double>()) + " to " +
                                  std::to_string(steps[0].item<double>()) +
                                  "): on several machines it must be one shared folder");
    }
    if (job.leader()) {
        print_field("Restart", std::to_string(job.info.restart));
        print_field("Start", found ? "step " + std::to_string(start) + ", epoch " +
                                         std::to_string(epoch) + ", from " +
                                         found->path.filename().string()
                                   : std::string("step 0: no snapshot yet"));
        std::cout << std::flush;
    }
    auto mine = shard_indices(kTrainSize, job.info.rank, world, epoch);
    for (std::int64_t step = start; step < options.steps; ++step) {
        if (step / kStepsPerEpoch != epoch) {  // a new epoch: the sampler's next shuffle
            epoch = step / kStepsPerEpoch;
            mine = shard_indices(kTrainSize, job.info.rank, world, epoch);
        }
        const auto index = local_rows(mine, world, static_cast<int>(step % kStepsPerEpoch));
        optimizer.zero_grad();
        torch::nn::functional::cross_entropy(
            model->forward(train_set.x.index_select(0, index).to(job.device)),
            train_set.y.index_select(0, index).to(job.device))
            .backward();
        all_reduce_gradients(job, *model);
        optimizer.step();
        if (options.pace_ms > 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(options.pace_ms));
        }
        const auto done = step + 1;
        if (job.leader() && (done % options.every == 0 || done == options.steps)) {
            const auto file =
                folder->write(done, snapshot_bytes(done, done / kStepsPerEpoch, *model, optimizer));
            print_field("Snapshot",
                        "step " + std::to_string(done) + " -> " + file.filename().string());
            std::cout << std::flush;
        }
    }
    const double spread = spread_across_ranks(job, *model);
    if (job.leader()) {
        print_field("Finished", std::to_string(options.steps) + " steps, ranks identical: " +
                                    (spread == 0.0 ? "yes" : "NO (" + scientific(spread) + ")"));
        if (!options.weights_out.empty()) {
            write_weights(*model, options.weights_out);
            print_field("Weights", options.weights_out);
        }
    }
}
}  // namespace lesson10
/** @endcond */
