/// @file training.cpp
/// @brief Lesson 10, sections 4 and 5: one training step on every rank, with the gradients first
/// all-reduced by hand (one collective per parameter, after backward) and then by c10d::Reducer
/// (buckets, all-reduced during backward); each run is compared with one process training on the
/// whole batch.
#include "lesson10.h"

#include <torchlings/lesson.h>

#include <torch/csrc/distributed/c10d/reducer.hpp>

#include <cstdint>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

// The lesson's own pieces, not an API: kept out of the generated documentation.
/** @cond */
namespace lesson10 {

using torchlings::print_field;
using torchlings::print_section;
using torchlings::scientific;

// --- 4. and 5. Training: gradients all-reduced by hand, then by c10d::Reducer ---
torch::nn::Sequential make_model(std::int64_t in, std::int64_t hidden, std::int64_t out) {
    torch::manual_seed(static_cast<std::uint64_t>(hidden));
    return torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::ReLU(),
                                 torch::nn::Linear(hidden, hidden), torch::nn::ReLU(),
                                 torch::nn::Linear(hidden, out));
}

at::Tensor flat_parameters(const torch::nn::Module& model) {
    std::vector<at::Tensor> flat;
    for (const auto& p : model.parameters()) {
        flat.push_back(p.detach().reshape(-1));
    }
    return torch::cat(flat);
}

/// Copies rank 0's parameters into every rank's model: the replicas must start equal. One
/// flattened broadcast instead of one per tensor; no_grad because parameters are leaves that
/// require grad, which autograd forbids writing in place.
void broadcast_parameters(Job& job, torch::nn::Module& model) {
    auto flat = flat_parameters(model).to(job.device);
    broadcast(job, flat, 0);
    const torch::NoGradGuard no_grad;
    std::int64_t offset = 0;
    for (auto& p : model.parameters()) {
        p.copy_(flat.slice(0, offset, offset + p.numel()).view_as(p));
        offset += p.numel();
    }
}

/// The largest difference between this rank's parameters and rank 0's, over all ranks.
double spread_across_ranks(Job& job, const torch::nn::Module& model) {
    const auto mine = flat_parameters(model).to(job.device);
    auto reference = mine.clone();
    broadcast(job, reference, 0);
    auto spread = (mine - reference).abs().max().reshape({1});
    all_reduce(job, spread, c10d::ReduceOp::MAX);
    return spread.item<double>();
}

/// The hand version, as PyTorch's C++ distributed example does it: after backward, one
/// all-reduce per parameter, then divide by the world size. Equal shards make the mean of the
/// ranks' mean-loss gradients the whole batch's mean-loss gradient.
void all_reduce_gradients(Job& job, torch::nn::Module& model) {
    for (auto& p : model.parameters()) {
        auto grad = p.mutable_grad();
        all_reduce(job, grad);
        grad.div_(job.info.world_size);
    }
}

/// The rows of global batch `step` that this rank trains on.
at::Tensor local_rows(const std::vector<std::int64_t>& mine, int world, int step) {
    const std::int64_t per_rank = kGlobalBatch / world;
    std::vector<std::int64_t> rows(mine.begin() + step * per_rank,
                                   mine.begin() + (step + 1) * per_rank);
    return torch::tensor(rows, torch::kLong);
}

/// The same steps in one process on the whole global batches: what the ranks must equal.
torch::nn::Sequential train_alone(const Data& train, int world) {
    auto model = make_model(kFeatures, 32, kClasses);
    torch::optim::SGD optimizer(model->parameters(), kLearningRate);
    std::vector<std::vector<std::int64_t>> shards;
    for (int r = 0; r < world; ++r) {
        shards.push_back(shard_indices(kTrainSize, r, world, 0));
    }
    for (int step = 0; step < kSteps; ++step) {
        std::vector<at::Tensor> rows;
        for (int r = 0; r < world; ++r) {
            rows.push_back(local_rows(shards[r], world, step));
        }
        const auto index = torch::cat(rows);
        optimizer.zero_grad();
        torch::nn::functional::cross_entropy(model->forward(train.x.index_select(0, index)),
                                             train.y.index_select(0, index))
            .backward();
        optimizer.step();
    }
    return model;
}

/// c10d::Reducer's constructor gained a last argument, per-bucket byte caps, after torch 2.9;
/// pass it only where the constructor takes it (R is a template parameter so that the branch not
/// taken is never compiled).
template <typename R = c10d::Reducer, typename... Args>
std::unique_ptr<R> construct_reducer(Args&&... args) {
    if constexpr (std::is_constructible_v<R, Args..., std::vector<std::int64_t>>) {
        return std::make_unique<R>(std::forward<Args>(args)..., std::vector<std::int64_t>{});
    } else {
        return std::make_unique<R>(std::forward<Args>(args)...);
    }
}

// Reducer's buckets, in the order backward produces the gradients. The Reducer starts the
// buckets' all-reduces strictly in bucket order (bucket 1 only after bucket 0, and so on), and
// backward produces the gradients last layer first: bucket 0 must hold the last layers, or no
// all-reduce starts before the first layer's gradients, the last to be ready, and nothing
// overlaps backward. So the parameters are assigned in reverse order, as DistributedDataParallel
// does (it reverses its first buckets, and after the first step rebuilds them in the order the
// gradients actually arrived). compute_bucket_assignment_by_size adds parameters to a bucket until
// it holds `cap` bytes or more, then closes it: a bucket can exceed the cap by its last parameter.
std::unique_ptr<c10d::Reducer> make_reducer(Job& job, const std::vector<at::Tensor>& params,
                                            std::int64_t cap,
                                            std::vector<std::int64_t>* bucket_bytes) {
    const std::vector<bool> sparse(params.size(), false);
    const std::vector<at::Tensor> last_first(params.rbegin(), params.rend());
    std::vector<std::int64_t> indices(params.size());  // n - 1, ..., 1, 0: last_first's indices
    std::iota(indices.rbegin(), indices.rend(), std::int64_t{0});
    auto [assignment, limits] = c10d::compute_bucket_assignment_by_size(
        last_first, {static_cast<std::size_t>(cap)}, sparse, indices);
    bucket_bytes->clear();
    for (const auto& bucket : assignment) {
        std::int64_t bytes = 0;
        for (const auto index : bucket) {
            bytes +=
                params[index].numel() * static_cast<std::int64_t>(params[index].element_size());
        }
        bucket_bytes->push_back(bytes);
    }
    // Arguments: parameters, buckets, group, sparse flags, bucket cap, find_unused_parameters,
    // gradient_as_bucket_view, parameter names, first bucket cap, skip unused, python reducer
    // (and, in newer torch, per-bucket caps: left empty).
    return construct_reducer(params, assignment, job.group, sparse, cap, false, false,
                             std::unordered_map<std::size_t, std::string>{}, cap, false, false);
}

struct TrainResult {
    double spread = 0;    ///< largest difference from rank 0 after training
    double vs_alone = 0;  ///< largest difference from one process on the whole batch
    std::size_t collectives = 0;
    std::int64_t bytes = 0;
};

TrainResult train(Job& job, const Data& train_set, Sync sync) {
    const int world = job.info.world_size;
    if (kGlobalBatch % world != 0) {
        throw std::invalid_argument("the global batch of " + std::to_string(kGlobalBatch) +
                                    " rows must split evenly: run 1, 2, 3, 4, 5, 6 or 8 "
                                    "processes, not " +
                                    std::to_string(world));
    }
    auto model = make_model(kFeatures, 32, kClasses);
    // Every rank seeded its own way would start from different weights; rank 0's win.
    if (job.info.rank != 0) {
        torch::manual_seed(1000 + job.info.rank);
        for (auto& p : model->parameters()) {
            const torch::NoGradGuard no_grad;
            p.uniform_(-1, 1);
        }
    }
    model->to(job.device);
    broadcast_parameters(job, *model);
    auto params = model->parameters();
    std::vector<std::int64_t> buckets;
    std::unique_ptr<c10d::Reducer> reducer;
    if (sync == Sync::kReducer) {
        c10d::verify_params_across_processes(job.group, params, std::nullopt);
        reducer = make_reducer(job, params, c10d::kDefaultBucketBytesCap, &buckets);
    }
    torch::optim::SGD optimizer(params, kLearningRate);
    const auto mine = shard_indices(kTrainSize, job.info.rank, world, 0);
    for (int step = 0; step < kSteps; ++step) {
        const auto index = local_rows(mine, world, step);
        optimizer.zero_grad();
        if (reducer) {
            reducer->prepare_for_forward();
        }
        const auto loss = torch::nn::functional::cross_entropy(
            model->forward(train_set.x.index_select(0, index).to(job.device)),
            train_set.y.index_select(0, index).to(job.device));
        if (reducer) {
            reducer->prepare_for_backward({loss});  // arms the hooks that all-reduce buckets
        }
        loss.backward();  // with the Reducer: returns once every bucket is reduced and averaged
        if (!reducer) {
            all_reduce_gradients(job, *model);
        }
        optimizer.step();
    }
    TrainResult result;
    result.spread = spread_across_ranks(job, *model);
    const auto alone = train_alone(train_set, world);
    result.vs_alone =
        (flat_parameters(*model).cpu() - flat_parameters(*alone)).abs().max().item<double>();
    for (const auto& p : params) {
        result.bytes += p.numel() * static_cast<std::int64_t>(p.element_size());
    }
    result.collectives = sync == Sync::kReducer ? buckets.size() : params.size();
    return result;
}

void show_training(Job& job, const Data& train_set) {
    const auto hand = train(job, train_set, Sync::kByHand);
    const auto reduced = train(job, train_set, Sync::kReducer);
    if (!job.leader()) {
        return;
    }
    auto report = [](const std::string& title, const TrainResult& r) {
        print_section(title);
        print_field("Steps", std::to_string(kSteps) + " of " + std::to_string(kGlobalBatch) +
                                 " rows, SGD lr " + std::to_string(kLearningRate).substr(0, 3));
        print_field("All-reduced per step",
                    bytes_text(r.bytes) + " in " + std::to_string(r.collectives) +
                        (r.collectives == 1 ? " collective" : " collectives"));
        print_field("Ranks identical",
                    std::string(r.spread == 0.0 ? "yes" : "NO") +
                        " (largest difference from rank 0: " + scientific(r.spread) + ")");
        print_field("Equal to one process", std::string(r.vs_alone < 1e-5 ? "yes" : "NO") +
                                                " (largest difference: " + scientific(r.vs_alone) +
                                                ")");
    };
    report("4. Training: gradients all-reduced by hand", hand);
    report("5. Training: c10d::Reducer (buckets, all-reduce during backward)", reduced);
}

}  // namespace lesson10
/** @endcond */
