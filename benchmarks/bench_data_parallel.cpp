/// @file bench_data_parallel.cpp
/// @brief Hand-built data parallelism (lesson 07): one SGD step split over 1, 2 or 4 shards.
///
/// Run (one line):
///   build/dev/bin/bench_data_parallel --benchmark_repetitions=5
///   --benchmark_report_aggregates_only=true
/// Each step is lesson 07's data_parallel_step as its reference solution writes it
/// (solutions/07_data_parallel/data_parallel_step.cpp, compiled in): split the batch, clone the
/// model once per shard, forward + backward of each shard on its own std::thread, average the
/// gradients into the original, SGD step. "single" is the
/// same step on one device with no clone and no thread: the floor the shards are compared with.
/// "replicate" times the clones alone. Two model widths: a narrow one, where the per-step
/// overhead (clones, thread start) dominates, and a wide one with real arithmetic per shard.
/// On a CPU all shards share its cores (and ATen's intra-op thread pool); CUDA cases, registered
/// only when GPUs are visible, put each shard on its own GPU (round robin) and synchronise every
/// device at the end of each step.
#include "bench_main.h"

#include <torchlings/device.h>
#include <torchlings/mlp.h>

#include "data_parallel_step.h"  // the exercise's API; the step timed is its reference solution

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr std::int64_t kFeatures = 64;
constexpr std::int64_t kClasses = 10;
constexpr std::int64_t kBatch = 512;

using torchlings::Mlp;
using torchlings::MlpImpl;

std::vector<Mlp> replicate(const Mlp& model, const std::vector<c10::Device>& devices) {
    std::vector<Mlp> replicas;
    for (const auto& device : devices) {
        replicas.emplace_back(std::dynamic_pointer_cast<MlpImpl>(model->clone(device)));
    }
    return replicas;
}

void synchronize_all(const std::vector<c10::Device>& devices) {
    for (const auto& d : devices) {
        torchlings::synchronize(d);
    }
}

struct Setup {
    Mlp model;
    torch::optim::SGD sgd;
    torch::Tensor x;
    torch::Tensor y;
};

Setup make_setup(std::int64_t hidden, const c10::Device& home) {
    torch::manual_seed(0);
    Mlp model(kFeatures, hidden, kClasses);
    model->to(home);
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.01));
    return {model, std::move(sgd), torch::randn({kBatch, kFeatures}).to(home),
            torch::randint(0, kClasses, {kBatch}, torch::kLong).to(home)};
}

void set_counters(benchmark::State& state, std::size_t shards) {
    state.SetItemsProcessed(state.iterations() * kBatch);  // rows per second
    state.counters["shards"] = static_cast<double>(shards);
}

void single_step(benchmark::State& state, const c10::Device& device) {
    auto s = make_setup(state.range(0), device);
    for (auto _ : state) {
        s.sgd.zero_grad();
        torch::nn::functional::cross_entropy(s.model->forward(s.x), s.y).backward();
        s.sgd.step();
        torchlings::synchronize(device);
    }
    set_counters(state, 1);
}

void shard_step(benchmark::State& state, const std::vector<c10::Device>& devices) {
    auto s = make_setup(state.range(0), devices.front());
    for (auto _ : state) {
        ex::data_parallel_step(s.model, s.sgd, s.x, s.y, devices);
        synchronize_all(devices);
    }
    set_counters(state, devices.size());
}

void replicate_only(benchmark::State& state, const std::vector<c10::Device>& devices) {
    auto s = make_setup(state.range(0), devices.front());
    for (auto _ : state) {
        benchmark::DoNotOptimize(replicate(s.model, devices));
        synchronize_all(devices);
    }
    state.counters["shards"] = static_cast<double>(devices.size());
    state.counters["param_bytes"] = static_cast<double>(
        (kFeatures * state.range(0) + state.range(0) + kClasses * state.range(0) + kClasses) * 4);
}

std::vector<c10::Device> devices_for(const std::string& tag, int n) {
    const int gpus = static_cast<int>(torch::cuda::device_count());
    std::vector<c10::Device> devices;
    for (int i = 0; i < n; ++i) {
        devices.push_back(tag == "cpu"
                              ? c10::Device(c10::kCPU)
                              : c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(i % gpus)));
    }
    return devices;
}

void register_for(const c10::Device& device) {
    const std::string tag = device.is_cpu() ? "cpu" : "cuda";  // shards spread over every GPU
    const auto widths = [](benchmark::internal::Benchmark* b) {
        b->ArgName("hidden")->Arg(64)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
    };
    widths(benchmark::RegisterBenchmark(("single/" + tag).c_str(), single_step,
                                        devices_for(tag, 1).front()));
    for (const int n : {1, 2, 4}) {
        const auto devices = devices_for(tag, n);
        widths(benchmark::RegisterBenchmark(("shards/" + tag + "/" + std::to_string(n)).c_str(),
                                            shard_step, devices));
        widths(benchmark::RegisterBenchmark(("replicate/" + tag + "/" + std::to_string(n)).c_str(),
                                            replicate_only, devices));
    }
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::bench::run_suite(argc, argv, torch::cuda::is_available(), register_for);
}
