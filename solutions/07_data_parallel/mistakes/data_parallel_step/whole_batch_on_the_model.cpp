// Mistake: Runs the whole batch through the original model
// One forward and backward on the whole batch gives the same parameters, but nothing is split
// or replicated. The tests see autograd reach the original's parameters, and a device list
// with meta that such a step never uses.
#include "data_parallel_step.h"

#include <torchlings/device.h>

#include <ATen/ops/cross_entropy_loss.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace ex {

double data_parallel_step(Mlp& model, torch::optim::Optimizer& optimizer, const at::Tensor& inputs,
                          const at::Tensor& targets, const std::vector<c10::Device>& devices) {
    if (devices.empty()) {
        throw std::invalid_argument("data_parallel_step: expected at least one device, got none");
    }
    if (inputs.dim() < 1 || targets.dim() < 1 || inputs.size(0) < 1 ||
        inputs.size(0) != targets.size(0)) {
        throw std::invalid_argument(
            "data_parallel_step: expected inputs and targets with the same number (>= 1) of rows, "
            "got " +
            std::to_string(inputs.dim() < 1 ? 0 : inputs.size(0)) + " and " +
            std::to_string(targets.dim() < 1 ? 0 : targets.size(0)));
    }
    optimizer.zero_grad();
    const auto whole = at::cross_entropy_loss(model->forward(inputs), targets);
    whole.backward();
    optimizer.step();
    return whole.item<double>();
    // 1. Scatter: near-equal shards, never an empty one (its mean loss would be NaN).
    const std::int64_t batch = inputs.size(0);
    const std::int64_t shards = std::min<std::int64_t>(batch, std::ssize(devices));
    std::vector<std::int64_t> sizes;
    for (std::int64_t i = 0; i < shards; ++i) {
        sizes.push_back(batch / shards + (i < batch % shards ? 1 : 0));
    }
    const auto input_shards = inputs.split_with_sizes(sizes, 0);
    const auto target_shards = targets.split_with_sizes(sizes, 0);

    // 2. Replicate: a deep copy per device, rebuilt each step because the weights changed.
    std::vector<Mlp> replicas;
    for (std::int64_t i = 0; i < shards; ++i) {
        replicas.emplace_back(std::dynamic_pointer_cast<MlpImpl>(model->clone(devices[i])));
    }

    // 3. Parallel apply: forward and backward of each shard on its own thread.
    std::vector<double> losses(sizes.size(), 0.0);
    std::vector<std::exception_ptr> errors(sizes.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        threads.emplace_back([&, i] {
            try {
                // A new thread has no current CUDA context: make the shard's GPU current first
                // (a guard alone skips that for cuda:0). A no-op on the CPU.
                torchlings::use_device_in_this_thread(devices[i]);
                const auto x = input_shards[i].to(devices[i]);
                const auto y = target_shards[i].to(devices[i]);
                const auto loss = at::cross_entropy_loss(replicas[i]->forward(x), y);
                loss.backward();
                losses[i] = loss.item<double>();
            } catch (...) {
                // An exception escaping a std::thread would call std::terminate: carry it out.
                errors[i] = std::current_exception();
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    for (const auto& error : errors) {
        if (error) {
            std::rethrow_exception(error);
        }
    }

    // 4. Reduce: weight n_i / B turns the shards' mean losses into the batch's mean loss.
    const auto originals = model->parameters();
    std::vector<std::vector<at::Tensor>> replica_parameters;
    for (const auto& replica : replicas) {
        replica_parameters.push_back(replica->parameters());
    }
    for (std::size_t p = 0; p < originals.size(); ++p) {
        at::Tensor sum;
        for (std::size_t i = 0; i < replicas.size(); ++i) {
            const double weight = static_cast<double>(sizes[i]) / static_cast<double>(batch);
            const auto grad = replica_parameters[i][p].grad().to(originals[p].device());
            sum = sum.defined() ? sum.add(grad, weight) : grad.mul(weight);
        }
        originals[p].mutable_grad() = sum;
    }

    // 5. Step: only the original is updated; the replicas are dropped and re-cloned next step.
    optimizer.step();
    double loss = 0.0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        loss += losses[i] * static_cast<double>(sizes[i]) / static_cast<double>(batch);
    }
    return loss;
}

}  // namespace ex
