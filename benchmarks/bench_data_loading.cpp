/// @file bench_data_loading.cpp
/// @brief DataLoader throughput (samples/s) against the number of worker threads.
///
/// Run (one line): build/release/bin/bench_data_loading --benchmark_repetitions=5
///                  --benchmark_report_aggregates_only=true
/// One iteration is one epoch of 1024 samples in batches of 64, each batch followed by a small
/// "training step" (a [64, 768] x [768, 512] matrix product, about 50 MFLOP) on the device.
/// Two kinds of dataset, the same as lesson 06's demo:
///   - io:  get() first sleeps 200 us (storage latency), then generates a 3x16x16 sample. Waiting
///          threads use no CPU, so workers help even past the number of cores.
///   - cpu: get() only computes (a 3x64x64 sample, then reduced to 3x16x16): workers can help
///          only up to the number of idle cores, which the main thread also needs.
/// The napkin math for io: 1024 x 200 us = 205 ms of sleeping per epoch with 0 workers, so at
/// most ~5,000 samples/s; N workers can overlap N sleeps.
#include "bench_main.h"

#include <torchlings/device.h>

#include <ATen/CPUGeneratorImpl.h>
#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <chrono>
#include <thread>

namespace {

constexpr int64_t kChannels = 3;
constexpr int64_t kSide = 16;
constexpr size_t kSamples = 1024;
constexpr size_t kBatch = 64;

// Made from (seed, index) alone, as in the lesson, so any worker may produce any sample.
class SyntheticImages : public torch::data::datasets::Dataset<SyntheticImages> {
  public:
    SyntheticImages(size_t count, bool io_bound) : count_(count), io_bound_(io_bound) {}

    torch::data::Example<> get(size_t index) override {
        auto generator = at::make_generator<at::CPUGeneratorImpl>(1000003ULL + index);
        const auto label = static_cast<int64_t>(index % 10);
        torch::Tensor image;
        if (io_bound_) {
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            image = torch::randn({kChannels, kSide, kSide}, generator);
        } else {
            // "Decode and resize": 16x the values, then average 4x4 blocks down to 16x16.
            image =
                torch::avg_pool2d(torch::randn({kChannels, 4 * kSide, 4 * kSide}, generator), 4);
        }
        return {image + static_cast<double>(label), torch::tensor(label, torch::kInt64)};
    }

    std::optional<size_t> size() const override { return count_; }

  private:
    size_t count_;
    bool io_bound_;
};

void epoch(benchmark::State& state, bool io_bound, const c10::Device& device) {
    const auto workers = static_cast<size_t>(state.range(0));
    const auto weights = torch::randn({kChannels * kSide * kSide, 512}, device);
    torch::NoGradGuard no_grad;
    for (auto _ : state) {
        auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
            SyntheticImages(kSamples, io_bound).map(torch::data::transforms::Stack<>()),
            torch::data::DataLoaderOptions().batch_size(kBatch).workers(workers));
        for (auto& batch : *loader) {
            const auto x = batch.data.to(device).flatten(1);
            benchmark::DoNotOptimize(torch::relu(x.matmul(weights)).sum());
        }
        torchlings::synchronize(device);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kSamples));
    state.counters["samples_per_s"] =
        benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(kSamples),
                           benchmark::Counter::kIsRate);
}

void register_for(const c10::Device& device) {
    const std::string tag = device.is_cuda() ? "cuda" : "cpu";
    const auto workers = [](benchmark::internal::Benchmark* b) {
        b->ArgName("workers")
            ->Arg(0)
            ->Arg(1)
            ->Arg(2)
            ->Arg(4)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    };
    workers(benchmark::RegisterBenchmark(("loader/io/" + tag).c_str(), epoch, true, device));
    workers(benchmark::RegisterBenchmark(("loader/cpu/" + tag).c_str(), epoch, false, device));
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::bench::run_suite(argc, argv, torch::cuda::is_available(), register_for);
}
