/// @file bench_main.h
/// @brief The main() every benchmark suite shares: Google Benchmark's command line, the suite's
/// benchmarks registered for the CPU and, where there is one, for the first CUDA GPU.
#pragma once

#include <benchmark/benchmark.h>
#include <c10/core/Device.h>

#include <functional>

namespace torchlings::bench {

/// Parses Google Benchmark's flags (exit code 2 for an unknown one), calls `register_for` with
/// the CPU and, when `with_cuda`, with cuda:0, then runs the benchmarks the flags select.
inline int run_suite(int argc, char** argv, bool with_cuda,
                     const std::function<void(const c10::Device&)>& register_for) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 2;
    }
    register_for(c10::Device(c10::kCPU));
    if (with_cuda) {
        register_for(c10::Device(c10::kCUDA, 0));
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

}  // namespace torchlings::bench
