/// @file bench_kernels.cpp
/// @brief The course's kernels (lesson 09) against ATen and against a plain copy.
///
/// Run: build/release/bin/bench_kernels --benchmark_repetitions=5
///      --benchmark_report_aggregates_only=true   (one command line; add
///      --benchmark_format=json for the plot script)
///
/// How it times (so that the figures can be trusted):
/// - Every iteration is timed by torchlings::DeviceTimer: CUDA events on the current stream on a
///   GPU (the GPU's own clock, no host launch overhead counted twice), the host clock around a
///   synchronisation on the CPU. Google Benchmark gets it as manual time.
/// - On a GPU, a 256 MiB buffer is overwritten before every timed iteration, outside the timing,
///   so that no input is still in L2 (50 MB on an H100): small sizes would otherwise measure the
///   cache, not DRAM. The CPU has no such flush: its sizes are chosen larger than its caches.
/// - Sizes: 2^20 to 2^28 floats on a GPU (4 MiB to 1 GiB per tensor), 2^20 to 2^24 on the CPU.
///
/// Counters (also in --benchmark_format=json):
/// - bytes_per_second: bytes the operation must move (SAXPY 12 per element, sum 4, copy 8);
/// - vs_aten: ATen's time / ours for the same operation and size (above 1: ours is faster), timed
///   right after ours, in the same process, the same way;
/// - vs_copy: our bandwidth / the bandwidth of a device-to-device copy of the same size (copy_:
///   reads and writes every byte), the practical peak of a streaming kernel.
#include "bench_main.h"

#include <torchlings/device.h>
#include <torchlings/kernels.h>
#include <torchlings/timer.h>

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <functional>
#include <string>

namespace {

namespace kernels = torchlings::kernels;

constexpr std::int64_t kFlushBytes = std::int64_t{256} << 20;
constexpr int kReferenceRuns = 20;
constexpr benchmark::IterationCount kGpuIterations = 200;

/// Evicts the inputs from the GPU's L2 by writing a buffer larger than it; nothing on the CPU.
class CacheFlush {
  public:
    explicit CacheFlush(const c10::Device& device) {
        if (device.is_cuda()) {
            buffer_ = torch::empty({kFlushBytes / 4}, torch::TensorOptions().device(device));
        }
    }
    void operator()() {
        if (buffer_.defined()) {
            buffer_.zero_();
        }
    }

  private:
    torch::Tensor buffer_;
};

/// Seconds of one run of `work`, flushed first, timed by `timer`.
double time_once(torchlings::DeviceTimer& timer, CacheFlush& flush,
                 const std::function<void()>& work) {
    flush();
    timer.start();
    work();
    return timer.stop_ms() * 1e-3;
}

/// Mean seconds over kReferenceRuns runs of `work` (after one warm-up).
double mean_seconds(torchlings::DeviceTimer& timer, CacheFlush& flush,
                    const std::function<void()>& work) {
    work();
    double total = 0.0;
    for (int i = 0; i < kReferenceRuns; ++i) {
        total += time_once(timer, flush, work);
    }
    return total / kReferenceRuns;
}

/// Times `ours` as the benchmark, then `aten` and a copy of `bytes_in` bytes for the ratios.
void run(benchmark::State& state, const c10::Device& device, std::int64_t bytes_moved,
         std::int64_t bytes_in, const std::function<void()>& ours,
         const std::function<void()>& aten) {
    torchlings::DeviceTimer timer(device);
    CacheFlush flush(device);
    ours();  // warm-up: lazy initialisation, the allocator's first blocks
    double total = 0.0;
    for (auto _ : state) {
        const double seconds = time_once(timer, flush, ours);
        state.SetIterationTime(seconds);
        total += seconds;
    }
    state.SetBytesProcessed(state.iterations() * bytes_moved);
    state.SetItemsProcessed(state.iterations() * state.range(0));
    const double mean = total / static_cast<double>(state.iterations());
    if (aten) {
        state.counters["vs_aten"] = mean_seconds(timer, flush, aten) / mean;
        const auto src = torch::empty({bytes_in / 4}, torch::TensorOptions().device(device));
        auto dst = torch::empty_like(src);
        const double copy = mean_seconds(timer, flush, [&] { dst.copy_(src); });
        state.counters["vs_copy"] = (static_cast<double>(bytes_moved) / mean) /
                                    (2.0 * static_cast<double>(bytes_in) / copy);
    }
}

torch::Tensor randn(std::int64_t n, const c10::Device& device) {
    return torch::randn({n}, torch::TensorOptions().device(device));
}

void saxpy_ours(benchmark::State& state, const c10::Device& device) {
    const std::int64_t n = state.range(0);
    const auto x = randn(n, device);
    const auto y = randn(n, device);
    run(
        state, device, 12 * n, 8 * n,
        [&] { benchmark::DoNotOptimize(torchlings::saxpy(2.0F, x, y)); },
        [&] { benchmark::DoNotOptimize(torch::add(y, x, 2.0)); });
}

void saxpy_aten(benchmark::State& state, const c10::Device& device) {
    const std::int64_t n = state.range(0);
    const auto x = randn(n, device);
    const auto y = randn(n, device);
    run(
        state, device, 12 * n, 8 * n, [&] { benchmark::DoNotOptimize(torch::add(y, x, 2.0)); },
        nullptr);
}

void sum_ours(benchmark::State& state, const c10::Device& device, kernels::SumStep step) {
    const std::int64_t n = state.range(0);
    const auto x = randn(n, device);
    run(
        state, device, 4 * n, 4 * n, [&] { benchmark::DoNotOptimize(torchlings::sum(x, step)); },
        [&] { benchmark::DoNotOptimize(x.sum()); });
}

void sum_aten(benchmark::State& state, const c10::Device& device) {
    const std::int64_t n = state.range(0);
    const auto x = randn(n, device);
    run(
        state, device, 4 * n, 4 * n, [&] { benchmark::DoNotOptimize(x.sum()); }, nullptr);
}

void copy_aten(benchmark::State& state, const c10::Device& device) {
    const std::int64_t n = state.range(0);
    const auto x = randn(n, device);
    auto y = torch::empty_like(x);
    run(
        state, device, 8 * n, 4 * n, [&] { y.copy_(x); }, nullptr);
}

void register_for(const c10::Device& device) {
    const std::string tag = device.is_cuda() ? "cuda" : "cpu";
    const int largest = device.is_cuda() ? 28 : 24;
    const bool is_cuda = device.is_cuda();
    const auto sizes = [largest, is_cuda](benchmark::internal::Benchmark* b) {
        for (int log2 = 20; log2 <= largest; log2 += 2) {
            b->Arg(std::int64_t{1} << log2);
        }
        b->Unit(benchmark::kMicrosecond)->UseManualTime();
        if (is_cuda) {
            // Google Benchmark runs until the timed (manual) time reaches its minimum, but each
            // GPU iteration also pays the L2 flush and an event synchronisation outside the
            // timing: a 10 us kernel would be run 50,000 times, minutes per size. A fixed count
            // keeps a repetition to a fraction of a second on an H100 or H200 (about 0.3 s for the
            // largest sum), a few seconds on a slower GPU.
            b->Iterations(kGpuIterations);
        }
    };
    const auto add = [&](const std::string& name, auto&&... args) {
        sizes(benchmark::RegisterBenchmark((name + "/" + tag).c_str(), args...));
    };
    add("saxpy/ours", saxpy_ours, device);
    add("saxpy/aten", saxpy_aten, device);
    if (device.is_cuda()) {
        for (const auto step : kernels::kSumSteps) {
            add(std::string("sum/") + kernels::sum_step_name(step), sum_ours, device, step);
        }
    } else {
        // On the CPU steps 1 to 3 share one twin (the grid-stride body) and step 4 has its own.
        add("sum/grid_stride_twin", sum_ours, device, kernels::SumStep::kSharedTree);
        add("sum/vectorised_twin", sum_ours, device, kernels::SumStep::kVectorised);
    }
    add("sum/aten", sum_aten, device);
    add("copy/aten", copy_aten, device);
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::bench::run_suite(
        argc, argv, torch::cuda::is_available() && torchlings::cuda_kernels_compiled(),
        register_for);
}
