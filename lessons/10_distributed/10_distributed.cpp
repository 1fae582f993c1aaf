/// @file 10_distributed.cpp
/// @brief Lesson 10 — Distributed data parallel: one process per device, gradients all-reduced
/// between processes by c10d, PyTorch's own distributed engine (Gloo on the CPU, NCCL on GPUs).
///
/// What you will learn:
///   1. what torchrun tells each process (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR:MASTER_PORT)
///      and how the processes meet in a store and build a process group;
///   2. the collectives (all-reduce, broadcast, all-gather), a distributed sampler, and a training
///      step that all-reduces gradients by hand, then through c10d::Reducer (buckets, overlap);
///   3. proof that every rank stays identical and equal to one process on the whole batch;
///   4. snapshots that let torchrun --max-restarts resume a job that lost a rank, bit for bit.
/// Run it: ./torchlings run 10   (= torchrun --no-python --nproc-per-node=2
/// build/dev/bin/lesson_10)
///         build/dev/bin/lesson_10 alone runs it as a job of one process.
///         torchrun --no-python --nproc-per-node=2 --max-restarts=3 build/dev/bin/lesson_10
///             --snapshot-dir /tmp/l10   runs the restartable training (section 8) alone.
#include "lesson10.h"

#include <torchlings/distributed.h>
#include <torchlings/lesson.h>
#include <torchlings/snapshot.h>
#include <torchlings/timer.h>

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/reducer.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

// The lesson's own pieces, not an API: kept out of the generated documentation.
/** @cond */
namespace lesson10 {

using torchlings::scientific;

using torchlings::print_field;
using torchlings::print_section;

std::string join(const std::vector<std::int64_t>& values, std::size_t limit = 8) {
    std::ostringstream out;
    for (std::size_t i = 0; i < values.size() && i < limit; ++i) {
        out << (i == 0 ? "" : ", ") << values[i];
    }
    if (values.size() > limit) {
        out << ", ...";
    }
    return out.str();
}

std::string bytes_text(std::int64_t bytes) {
    std::ostringstream out;
    constexpr double kKiB = 1024.0;
    out << bytes << " bytes (" << std::fixed << std::setprecision(1)
        << static_cast<double>(bytes) / kKiB << " KiB)";
    return out.str();
}

/// Waits for a collective; Gloo throws here when a peer died or the timeout passed.
void wait(const c10::intrusive_ptr<c10d::Work>& work) { work->wait(); }

void all_reduce(Job& job, at::Tensor& tensor, c10d::ReduceOp op) {
    std::vector<at::Tensor> tensors{tensor};
    c10d::AllreduceOptions options;
    options.reduceOp = op;
    wait(job.group->allreduce(tensors, options));
}

void broadcast(Job& job, at::Tensor& tensor, int root) {
    std::vector<at::Tensor> tensors{tensor};
    c10d::BroadcastOptions options;
    options.rootRank = root;
    wait(job.group->broadcast(tensors, options));
}

// --- 1. Who am I: the launcher's variables, the store, the process group ---
Job join_job(const torchlings::LessonContext& context) {
    Job job;
    job.info = dist::read_launch_info();
    job.timeout = dist::timeout_from_env(kDefaultTimeout);
    if (!job.info.launched) {
        job.info.master_port = dist::free_port();  // alone: any free port will do
    }
    // One process per GPU: LOCAL_RANK picks it, whatever --device named. With more processes
    // than GPUs (two on a one-GPU machine) the job runs on the CPU with Gloo, and says why.
    const auto placement = dist::place_process(
        job.info, context.device.is_cuda(),
        context.device.is_cuda() ? static_cast<int>(torch::cuda::device_count()) : 0);
    const auto kind = placement.kind;
    job.device = placement.device;
    if (job.leader()) {
        print_section("1. The job");
        print_field("Launched by", job.info.launched ? "a launcher (torchrun's variables are set)"
                                                     : "nobody: one process alone");
        print_field("World size", std::to_string(job.info.world_size));
        print_field("This process", "rank " + std::to_string(job.info.rank) + ", local rank " +
                                        std::to_string(job.info.local_rank));
        print_field("Store", "TCPStore at " + job.info.master_addr + ":" +
                                 (job.info.launched ? std::to_string(job.info.master_port)
                                                    : std::string("<free port>")) +
                                 (job.info.agent_store ? ", served by torchrun's agent"
                                                       : ", served by rank 0"));
    }
    const auto store = dist::connect_store(job.info, job.timeout);
    job.group =
        dist::make_process_group(store, job.info.rank, job.info.world_size, job.timeout, kind);
    if (job.leader()) {
        // The note stays in this field, so that the report has the same lines on every machine.
        print_field("Process group",
                    std::string(kind == dist::BackendKind::kNccl ? "nccl" : "gloo") + " on " +
                        job.device.str() + ", timeout " +
                        std::to_string(job.timeout.count() / 1000) + " s" +
                        (placement.note.empty() ? "" : " (" + placement.note + ")"));
    }
    return job;
}

// --- 2. Collectives ---
void show_collectives(Job& job) {
    const auto world = job.info.world_size;
    const auto options = torch::TensorOptions().dtype(torch::kFloat32).device(job.device);
    // all-reduce: every rank contributes rank + 1 and gets the sum 1 + 2 + ... + world.
    auto sum = torch::full({1}, static_cast<float>(job.info.rank + 1), options);
    all_reduce(job, sum);
    // broadcast: rank 0's value overwrites everyone's.
    auto shared = torch::full({1}, job.leader() ? 42.0F : -1.0F, options);
    broadcast(job, shared, 0);
    // all-gather: every rank gets every rank's tensor, in rank order.
    std::vector<std::vector<at::Tensor>> gathered(1);
    for (int r = 0; r < world; ++r) {
        gathered[0].push_back(torch::empty({1}, options));
    }
    std::vector<at::Tensor> mine{torch::full({1}, static_cast<float>(job.info.rank), options)};
    wait(job.group->allgather(gathered, mine));
    if (job.leader()) {
        print_section("2. Collectives");
        print_field("all_reduce(rank + 1)", std::to_string(static_cast<int>(sum.item<float>())) +
                                                "  (expected " +
                                                std::to_string(world * (world + 1) / 2) + ")");
        print_field("broadcast(42 from rank 0)", std::to_string(shared.item<int>()));
        std::vector<std::int64_t> ranks;
        for (const auto& t : gathered[0]) {
            ranks.push_back(static_cast<std::int64_t>(t.item<float>()));
        }
        print_field("all_gather(rank)", join(ranks));
    }
}

// --- 3. A distributed sampler ---
/// Rank `rank`'s indices of an epoch, as PyTorch's DistributedSampler deals them: one shuffle
/// shared by all ranks (same seed + epoch), padded by wrapping round to a multiple of the world
/// size so that every rank gets as many samples (and runs as many collectives), then every
/// world_size-th index starting at `rank`.
std::vector<std::int64_t> shard_indices(std::int64_t size, int rank, int world,
                                        std::int64_t epoch) {
    auto generator = at::make_generator<at::CPUGeneratorImpl>(kSamplerSeed + epoch);
    const auto order = torch::randperm(size, generator, torch::kLong);
    const std::int64_t per_rank = (size + world - 1) / world;
    std::vector<std::int64_t> mine;
    for (std::int64_t i = rank; i < per_rank * world; i += world) {
        mine.push_back(order[i % size].item<std::int64_t>());
    }
    return mine;
}

/// Gaussian blobs from a fixed seed: every rank generates the same data set, as every rank of a
/// real job reads the same files, and the sampler decides who uses which rows.
std::pair<Data, Data> make_blobs() {
    torch::manual_seed(0);
    const auto centres = torch::randn({kClasses, kFeatures}) * 2.5;
    auto make = [&](std::int64_t n) {
        const auto y = torch::randint(kClasses, {n}, torch::kLong);
        return Data{centres.index_select(0, y) + torch::randn({n, kFeatures}), y};
    };
    auto train_set = make(kTrainSize);
    auto test_set = make(kTestSize);
    return {train_set, test_set};
}

void show_sampler(const Job& job) {
    const auto world = job.info.world_size;
    const auto mine = shard_indices(kTrainSize, job.info.rank, world, 0);
    if (job.leader()) {
        print_section("3. Each rank its shard: a distributed sampler");
        print_field("Samples per rank", std::to_string(mine.size()) + " of " +
                                            std::to_string(kTrainSize) + " (padded to " +
                                            std::to_string(mine.size() * world) + ")");
        print_field("Rank 0, epoch 0", join(mine, 6));
        print_field("Rank 0, epoch 1", join(shard_indices(kTrainSize, 0, world, 1), 6));
        print_field("Batch per rank", std::to_string(kGlobalBatch / world) +
                                          " rows of the global " + std::to_string(kGlobalBatch));
    }
}

// --- 4. and 5. Training: in training.cpp ---

// --- 6. Evaluation: accuracy gathered across ranks ---
void show_evaluation(Job& job, const Data& train_set, const Data& test) {
    auto model = make_model(kFeatures, 32, kClasses);
    torch::optim::SGD optimizer(model->parameters(), kLearningRate);
    for (int step = 0; step < kSteps; ++step) {  // trained alone: this section is about counting
        optimizer.zero_grad();
        const auto rows = torch::arange(step * kGlobalBatch, (step + 1) * kGlobalBatch);
        torch::nn::functional::cross_entropy(model->forward(train_set.x.index_select(0, rows)),
                                             train_set.y.index_select(0, rows))
            .backward();
        optimizer.step();
    }
    const torch::NoGradGuard no_grad;
    // Each rank scores a contiguous, unpadded slice: padding would count some samples twice.
    const std::int64_t world = job.info.world_size;
    const std::int64_t begin = kTestSize * job.info.rank / world;
    const std::int64_t end = kTestSize * (job.info.rank + 1) / world;
    const auto predicted = model->forward(test.x.slice(0, begin, end)).argmax(1);
    const auto correct = predicted.eq(test.y.slice(0, begin, end)).sum().item<std::int64_t>();
    // Counts travel, not accuracies: an average of per-rank accuracies is wrong for unequal shards.
    auto counts = torch::tensor({correct, end - begin}, torch::kFloat64).to(job.device);
    all_reduce(job, counts);
    if (job.leader()) {
        print_section("6. Evaluation: counts all-reduced, then divided");
        const auto total = counts[1].item<double>();
        std::ostringstream accuracy;
        accuracy << std::fixed << std::setprecision(1) << 100.0 * counts[0].item<double>() / total
                 << "% of " << static_cast<std::int64_t>(total) << " test samples";
        print_field("Accuracy, all ranks", accuracy.str());
    }
}

// --- 7. What it costs ---
// 1 MiB, the size of DDP's first bucket. Filled last layer first, bucket 0 takes the last layer and
// the middle one, closed by the middle layer's 4 MiB weight; bucket 1 is the first layer. So
// bucket 0's all-reduce can run while backward computes the first layer's gradients.
constexpr std::int64_t kBucketCap = std::int64_t{1} << 20;

/// The median step time over the ranks; `*collectives` gets the bytes of each all-reduce of a
/// step (one per parameter by hand, one per bucket with the Reducer).
double time_steps(Job& job, Sync sync, int steps, std::vector<std::int64_t>* collectives) {
    constexpr std::int64_t kIn = 256;
    constexpr std::int64_t kWide = 1024;
    constexpr std::int64_t kLocalBatch = 64;
    auto model = make_model(kIn, kWide, 10);
    model->to(job.device);
    auto params = model->parameters();
    std::unique_ptr<c10d::Reducer> reducer;
    collectives->clear();
    if (sync == Sync::kReducer) {
        reducer = make_reducer(job, params, kBucketCap, collectives);
    } else {
        for (const auto& p : params) {
            collectives->push_back(p.numel() * static_cast<std::int64_t>(p.element_size()));
        }
    }
    torch::optim::SGD optimizer(params, kLearningRate);
    const auto x = torch::randn({kLocalBatch, kIn}, torch::TensorOptions().device(job.device));
    const auto y = torch::randint(10, {kLocalBatch},
                                  torch::TensorOptions().dtype(torch::kLong).device(job.device));
    std::vector<double> times;
    for (int step = 0; step < steps + 2; ++step) {  // two warm-up steps
        at::Tensor barrier = torch::zeros({1}, torch::TensorOptions().device(job.device));
        all_reduce(job, barrier);  // start together
        torchlings::DeviceTimer timer(job.device);
        timer.start();
        optimizer.zero_grad();
        if (reducer) {
            reducer->prepare_for_forward();
        }
        const auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
        if (reducer) {
            reducer->prepare_for_backward({loss});
        }
        loss.backward();
        if (!reducer) {
            all_reduce_gradients(job, *model);
        }
        optimizer.step();
        if (step >= 2) {
            times.push_back(timer.stop_ms());
        }
    }
    auto median = torch::tensor({torchlings::median(times)}, torch::kFloat64).to(job.device);
    all_reduce(job, median, c10d::ReduceOp::MAX);  // a step lasts as long as its slowest rank
    return median.item<double>();
}

void show_cost(Job& job) {
    constexpr int kTimedSteps = 10;
    std::vector<std::int64_t> parameters;
    std::vector<std::int64_t> buckets;
    const double hand = time_steps(job, Sync::kByHand, kTimedSteps, &parameters);
    const double reduced = time_steps(job, Sync::kReducer, kTimedSteps, &buckets);
    if (!job.leader()) {
        return;
    }
    auto ms = [](double value) {
        std::ostringstream out;
        out << std::fixed << std::setprecision(2) << value << " ms";
        return out.str();
    };
    // "2 buckets of 4.04 and 1.00 MiB": bucket 0 (the last layers) first.
    std::ostringstream sizes;
    sizes << buckets.size() << (buckets.size() == 1 ? " bucket of " : " buckets of ") << std::fixed
          << std::setprecision(2);
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        sizes << (i == 0                    ? ""
                  : i + 1 == buckets.size() ? " and "
                                            : ", ")
              << static_cast<double>(buckets[i]) / (1 << 20);
    }
    sizes << " MiB (cap " << kBucketCap / (1 << 20) << " MiB)";
    print_section("7. What a step costs (MLP 256-1024-1024-10, 64 rows per rank)");
    print_field("Processes", std::to_string(job.info.world_size));
    print_field("All-reduced per step",
                bytes_text(std::accumulate(parameters.begin(), parameters.end(), std::int64_t{0})));
    print_field("Step, by hand", ms(hand) + " (median of " + std::to_string(kTimedSteps) + ", " +
                                     std::to_string(parameters.size()) +
                                     " all-reduces after backward)");
    print_field("Step, Reducer", ms(reduced) + " (median of " + std::to_string(kTimedSteps) + ", " +
                                     sizes.str() + ", during backward)");
}

// --- 8. Surviving a lost rank: snapshots and restarts --- in restartable.cpp

}  // namespace lesson10
/** @endcond */

int main(int argc, char** argv) {
    using namespace lesson10;  // NOLINT(google-build-using-namespace): the lesson's own
    // Only rank 0 reports: the others' standard output is silenced (errors still reach stderr),
    // so the job prints one report whatever its size.
    if (const auto info = dist::read_launch_info(); info.rank != 0) {
        std::cout.setstate(std::ios::failbit);
    }
    ResumeOptions resume;
    std::string every, steps, hidden, pace;
    const std::vector<torchlings::LessonOption> options{
        {"--snapshot-dir", "train restartably, with snapshots in this folder (section 8 only)",
         &resume.dir},
        {"--snapshot-every", "a snapshot every this many steps (default 5)", &every},
        {"--steps", "steps of the restartable training (default 48)", &steps},
        {"--hidden", "the restartable model's width (default 32)", &hidden},
        {"--pace-ms", "pause after each step, in milliseconds (default 0)", &pace},
        {"--weights-out", "rank 0 writes the final parameters here (raw float32)",
         &resume.weights_out}};
    return torchlings::run_lesson(
        argc, argv, "torchlings lesson 10: distributed data parallel", options,
        [&](const torchlings::LessonContext& context) {
            auto number = [](const std::string& name, const std::string& text,
                             std::int64_t fallback) -> std::int64_t {
                if (text.empty()) {
                    return fallback;
                }
                std::int64_t value = -1;
                const auto [end, error] =
                    std::from_chars(text.data(), text.data() + text.size(), value);
                if (error != std::errc() || end != text.data() + text.size() || value < 0) {
                    throw std::invalid_argument(name + " expects a whole number >= 0, got \"" +
                                                text + "\"");
                }
                return value;
            };
            if (resume.dir.empty() &&
                !(every + steps + hidden + pace + resume.weights_out).empty()) {
                throw std::invalid_argument(
                    "--snapshot-every, --steps, --hidden, --pace-ms and --weights-out belong to "
                    "the restartable training: give --snapshot-dir <folder> too");
            }
            resume.every = number("--snapshot-every", every, resume.every);
            resume.steps = number("--steps", steps, resume.steps);
            resume.hidden = number("--hidden", hidden, resume.hidden);
            resume.pace_ms = number("--pace-ms", pace, resume.pace_ms);
            auto job = join_job(context);
            const auto [train_set, test] = make_blobs();
            try {
                if (!resume.dir.empty()) {
                    train_restartable(job, train_set, resume);
                } else {
                    // Flushed after each section, so a launcher sees how far rank 0 got.
                    show_collectives(job);
                    std::cout << std::flush;
                    show_sampler(job);
                    std::cout << std::flush;
                    show_training(job, train_set);
                    std::cout << std::flush;
                    show_evaluation(job, train_set, test);
                    std::cout << std::flush;
                    show_cost(job);
                }
            } catch (const torchlings::snap::SnapshotError&) {
                throw;  // says itself what is wrong with the folder or the snapshot
            } catch (const std::invalid_argument&) {
                throw;
            } catch (const std::exception& error) {
                // Gloo's own text names a socket; say what it means for the job.
                throw std::runtime_error(
                    "rank " + std::to_string(job.info.rank) + " of " +
                    std::to_string(job.info.world_size) +
                    ": a collective failed, because another rank died or did not answer within " +
                    std::to_string(job.timeout.count() / 1000) + " s (" +
                    torchlings::first_line(error.what()) + ")");
            }
            // What Python's destroy_process_group() does: the group's work ends before the
            // process does (NCCL warns at exit otherwise).
            job.group->shutdown();
        });
}
