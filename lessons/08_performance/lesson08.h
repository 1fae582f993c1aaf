/// @file lesson08.h
/// @brief Lesson 08's shared pieces: the demo's millisecond format, its timing and the records it
/// keeps for --json, and the sections in files of their own: 5 and 6 (mixed precision,
/// mixed_precision.cpp), 7 (profiling, profiling.cpp) and the GPU's host-side sections
/// (gpu_streams.cpp), which 08_performance.cpp runs.
#pragma once

#include <torchlings/timer.h>

#include <c10/core/Device.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

// The lesson's own pieces, not an API: kept out of the generated documentation.
/** @cond */
namespace lesson08 {

/// Timed runs of each measurement, after this many untimed warm-up runs.
constexpr int kRepetitions = 5;
constexpr int kWarmup = 2;

/// One measurement the demo keeps for --json.
struct Record {
    std::string op;
    std::int64_t size = 0;
    std::string device;
    torchlings::TimingSummary timing;
    bool includes_copies = false;
};

/// Milliseconds with three significant figures or more: "0.0123", "1.23", "123".
std::string ms(double value);

/// Whether /proc/cpuinfo lists a CPU flag ("avx512_bf16", "amx_bf16"); "unknown" without it.
std::string cpu_flag(const std::string& flag);

/// `work` timed on the device: kWarmup runs, then the median of kRepetitions.
torchlings::TimingSummary time_op(const c10::Device& device, const std::function<void()>& work);

/// Section 5: autocast's dtype, error and speed on a matmul, and a short regression with it.
void show_autocast(const c10::Device& device, std::vector<Record>& records);

/// Section 6: a float16 gradient lost without loss scaling, kept with it, and the scaler's ops.
void show_loss_scaling();

/// Prints a GPU section's title and, on any device but CUDA, the line saying it is skipped; true
/// when the section runs.
bool gpu_section(const std::string& title, const c10::Device& device);

/// GPU: an asynchronous copy from pinned memory, and a copy on a second stream (gpu_streams.cpp).
void show_async(const c10::Device& device);

/// GPU: a launch-bound step, eager and replayed as a CUDA graph (gpu_streams.cpp).
void show_cuda_graph(const c10::Device& device);

/// Section 7: profiles three training steps of section 4's MLP with LibTorch's profiler; with a
/// non-empty `trace_path`, writes the Chrome trace there.
void show_profile(const c10::Device& device, const std::string& trace_path);

}  // namespace lesson08
/** @endcond */
