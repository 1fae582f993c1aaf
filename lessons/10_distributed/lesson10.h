/// @file lesson10.h
/// @brief Lesson 10's shared pieces: the job, the data, and the training helpers that sections 1
/// to 7 (10_distributed.cpp, with 4 and 5 in training.cpp) and the restartable training of
/// section 8 (restartable.cpp) use.
#pragma once

#include <torchlings/distributed.h>

#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/reducer.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// The lesson's own pieces, not an API: kept out of the generated documentation.
/** @cond */
namespace lesson10 {

namespace dist = torchlings::dist;

constexpr std::int64_t kFeatures = 8;
constexpr std::int64_t kClasses = 4;
constexpr std::int64_t kTrainSize = 1920;
constexpr std::int64_t kTestSize = 600;
constexpr std::int64_t kGlobalBatch = 120;  // divisible by 1, 2, 3, 4, 5, 6 and 8 processes
constexpr int kSteps = 16;
constexpr double kLearningRate = 0.1;
constexpr std::uint64_t kSamplerSeed = 7;
constexpr auto kDefaultTimeout = std::chrono::seconds(60);

/// One process's view of the job.
struct Job {
    dist::LaunchInfo info;
    c10::intrusive_ptr<c10d::ProcessGroup> group;
    c10::Device device{c10::kCPU};
    std::chrono::milliseconds timeout{kDefaultTimeout};
    [[nodiscard]] bool leader() const { return info.rank == 0; }
};

struct Data {
    at::Tensor x, y;
};

/// Waits for a collective; Gloo throws here when a peer died or the timeout passed.
void wait(const c10::intrusive_ptr<c10d::Work>& work);
/// All-reduces `tensor` in place over the job's group.
void all_reduce(Job& job, at::Tensor& tensor, c10d::ReduceOp op = c10d::ReduceOp::SUM);
/// Copies rank `root`'s `tensor` into every rank's, in place.
void broadcast(Job& job, at::Tensor& tensor, int root);
/// Rank `rank`'s indices of epoch `epoch`, as PyTorch's DistributedSampler deals them.
std::vector<std::int64_t> shard_indices(std::int64_t size, int rank, int world, std::int64_t epoch);
/// The lesson's MLP, in -> hidden -> hidden -> out, seeded by its width.
torch::nn::Sequential make_model(std::int64_t in, std::int64_t hidden, std::int64_t out);
/// All parameters, flattened into one tensor.
at::Tensor flat_parameters(const torch::nn::Module& model);
/// Copies rank 0's parameters into every rank's model.
void broadcast_parameters(Job& job, torch::nn::Module& model);
/// The largest difference between this rank's parameters and rank 0's, over all ranks.
double spread_across_ranks(Job& job, const torch::nn::Module& model);
/// The mean of every rank's gradients, one all-reduce per parameter.
void all_reduce_gradients(Job& job, torch::nn::Module& model);
/// The rows of global batch `step` that this rank trains on.
at::Tensor local_rows(const std::vector<std::int64_t>& mine, int world, int step);

/// "5904 bytes (5.8 KiB)".
std::string bytes_text(std::int64_t bytes);

/// How gradients are averaged: by hand after backward (section 4) or by c10d::Reducer (5).
enum class Sync { kByHand, kReducer };
/// A c10d::Reducer over `params`, bucketed last layer first, each bucket closed once it holds
/// `cap` bytes or more; `*bucket_bytes` gets each bucket's size, bucket 0 first.
std::unique_ptr<c10d::Reducer> make_reducer(Job& job, const std::vector<at::Tensor>& params,
                                            std::int64_t cap,
                                            std::vector<std::int64_t>* bucket_bytes);
/// Sections 4 and 5 (training.cpp): the same training, by hand and with the Reducer.
void show_training(Job& job, const Data& train_set);

/// `--snapshot-dir` and friends: the restartable training's command line.
struct ResumeOptions {
    std::string dir;
    std::int64_t every = 5;    ///< a snapshot every this many steps
    std::int64_t steps = 48;   ///< the steps of the whole job (3 epochs of 16)
    std::int64_t hidden = 32;  ///< the model's width (another width cannot use the snapshot)
    std::int64_t pace_ms = 0;  ///< a pause after each step, so a test can kill a rank mid-job
    std::string weights_out;   ///< rank 0 writes the final parameters here (raw float32)
};

/// Section 8: training that writes snapshots and resumes from the newest whole one.
void train_restartable(Job& job, const Data& train_set, const ResumeOptions& options);

}  // namespace lesson10
/** @endcond */
