/// @file bench_data_parallel.cpp
/// @brief Hand-built data parallelism (lesson 07): one SGD step split over 1, 2 or 4 shards.
///
/// Run (one line):
///   build/dev/bin/bench_data_parallel --benchmark_repetitions=5
///   --benchmark_report_aggregates_only=true
/// Each step: split the batch, clone the model once per shard, forward + backward of each shard
/// on its own std::thread, average the gradients into the original, SGD step. "single" is the
/// same step on one device with no clone and no thread: the floor the shards are compared with.
/// "replicate" times the clones alone. Two model widths: a narrow one, where the per-step
/// overhead (clones, thread start) dominates, and a wide one with real arithmetic per shard.
/// On a CPU all shards share its cores (and ATen's intra-op thread pool); CUDA cases, registered
/// only when GPUs are visible, put each shard on its own GPU (round robin) and synchronise every
/// device at the end of each step.
#include "bench_main.h"

#include <torchlings/device.h>

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr std::int64_t kFeatures = 64;
constexpr std::int64_t kClasses = 10;
constexpr std::int64_t kBatch = 512;

struct MlpImpl : torch::nn::Cloneable<MlpImpl> {
    explicit MlpImpl(std::int64_t hidden) : hidden_(hidden) { reset(); }
    void reset() override {
        w1 = register_parameter("w1", torch::randn({hidden_, kFeatures}) / std::sqrt(kFeatures));
        b1 = register_parameter("b1", torch::zeros({hidden_}));
        w2 = register_parameter(
            "w2", torch::randn({kClasses, hidden_}) / std::sqrt(static_cast<double>(hidden_)));
        b2 = register_parameter("b2", torch::zeros({kClasses}));
    }
    torch::Tensor forward(const torch::Tensor& x) {
        return torch::linear(torch::relu(torch::linear(x, w1, b1)), w2, b2);
    }
    torch::Tensor w1, b1, w2, b2;

  private:
    std::int64_t hidden_;
};
TORCH_MODULE(Mlp);

std::vector<Mlp> replicate(const Mlp& model, const std::vector<c10::Device>& devices) {
    std::vector<Mlp> replicas;
    for (const auto& device : devices) {
        replicas.emplace_back(std::dynamic_pointer_cast<MlpImpl>(model->clone(device)));
    }
    return replicas;
}

/// The lesson's hand-built step (see lessons/07_data_parallel), without its comments.
void data_parallel_step(Mlp& model, torch::optim::SGD& sgd, const torch::Tensor& x,
                        const torch::Tensor& y, const std::vector<c10::Device>& devices) {
    const auto n = static_cast<std::int64_t>(devices.size());
    std::vector<std::int64_t> sizes;
    for (std::int64_t i = 0; i < n; ++i) {
        sizes.push_back(kBatch / n + (i < kBatch % n ? 1 : 0));
    }
    const auto xs = x.split_with_sizes(sizes, 0);
    const auto ys = y.split_with_sizes(sizes, 0);
    auto replicas = replicate(model, devices);
    std::vector<std::exception_ptr> errors(devices.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        threads.emplace_back([&, i] {
            try {
                torchlings::use_device_in_this_thread(devices[i]);
                torch::nn::functional::cross_entropy(replicas[i]->forward(xs[i].to(devices[i])),
                                                     ys[i].to(devices[i]))
                    .backward();
            } catch (...) {
                errors[i] = std::current_exception();
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    for (const auto& e : errors) {
        if (e) {
            std::rethrow_exception(e);
        }
    }
    const auto originals = model->parameters();
    for (std::size_t i = 0; i < replicas.size(); ++i) {
        const double weight = static_cast<double>(sizes[i]) / static_cast<double>(kBatch);
        const auto theirs = replicas[i]->parameters();
        for (std::size_t p = 0; p < originals.size(); ++p) {
            const auto g = theirs[p].grad().to(originals[p].device()) * weight;
            originals[p].mutable_grad() = i == 0 ? g : originals[p].grad() + g;
        }
    }
    sgd.step();
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
    Mlp model(hidden);
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
        data_parallel_step(s.model, s.sgd, s.x, s.y, devices);
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
