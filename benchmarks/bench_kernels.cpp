/// @file bench_kernels.cpp
/// @brief The course's kernels against their ATen equivalents, with bytes-per-second counters.
///
/// Run: build/release/bin/bench_kernels --benchmark_repetitions=5
///      --benchmark_report_aggregates_only=true   (one command line)
/// Napkin math: SAXPY moves 12 bytes per element (read x, read y, write out) and sum 4; both are
/// memory-bound, so bytes/s is the figure to compare with the machine's memory bandwidth.
/// CUDA cases are registered only when a GPU is visible and the kernels were compiled; they time
/// with a device synchronisation inside the loop, so the GPU work is measured, not the launch.
#include "bench_main.h"

#include <torchlings/device.h>
#include <torchlings/kernels.h>

#include <benchmark/benchmark.h>
#include <torch/torch.h>

namespace {

void set_counters(benchmark::State& state, int64_t n, int64_t bytes_per_element) {
    state.SetBytesProcessed(state.iterations() * n * bytes_per_element);
    state.SetItemsProcessed(state.iterations() * n);
}

void saxpy_ours(benchmark::State& state, const c10::Device& device) {
    const int64_t n = state.range(0);
    const auto x = torch::randn({n}, torch::TensorOptions().device(device));
    const auto y = torch::randn({n}, torch::TensorOptions().device(device));
    for (auto _ : state) {
        benchmark::DoNotOptimize(torchlings::saxpy(2.0F, x, y));
        torchlings::synchronize(device);
    }
    set_counters(state, n, 12);
}

void saxpy_aten(benchmark::State& state, const c10::Device& device) {
    const int64_t n = state.range(0);
    const auto x = torch::randn({n}, torch::TensorOptions().device(device));
    const auto y = torch::randn({n}, torch::TensorOptions().device(device));
    for (auto _ : state) {
        benchmark::DoNotOptimize(torch::add(y, x, 2.0));  // y + 2 * x, ATen's fused form
        torchlings::synchronize(device);
    }
    set_counters(state, n, 12);
}

void sum_ours(benchmark::State& state, const c10::Device& device) {
    const int64_t n = state.range(0);
    const auto x = torch::rand({n}, torch::TensorOptions().device(device));
    for (auto _ : state) {
        benchmark::DoNotOptimize(torchlings::sum(x));
        torchlings::synchronize(device);
    }
    set_counters(state, n, 4);
}

void sum_aten(benchmark::State& state, const c10::Device& device) {
    const int64_t n = state.range(0);
    const auto x = torch::rand({n}, torch::TensorOptions().device(device));
    for (auto _ : state) {
        benchmark::DoNotOptimize(x.sum());
        torchlings::synchronize(device);
    }
    set_counters(state, n, 4);
}

void register_for(const c10::Device& device) {
    const std::string tag = device.is_cuda() ? "cuda" : "cpu";
    const auto sizes = [](benchmark::internal::Benchmark* b) {
        b->Arg(1 << 20)->Arg(1 << 22)->Arg(1 << 24)->Unit(benchmark::kMicrosecond)->UseRealTime();
    };
    sizes(benchmark::RegisterBenchmark(("saxpy/ours/" + tag).c_str(), saxpy_ours, device));
    sizes(benchmark::RegisterBenchmark(("saxpy/aten/" + tag).c_str(), saxpy_aten, device));
    sizes(benchmark::RegisterBenchmark(("sum/ours/" + tag).c_str(), sum_ours, device));
    sizes(benchmark::RegisterBenchmark(("sum/aten/" + tag).c_str(), sum_aten, device));
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::bench::run_suite(
        argc, argv, torch::cuda::is_available() && torchlings::cuda_kernels_compiled(),
        register_for);
}
