/// @file 09_kernels.cpp
/// @brief Lesson 09 — writing your own CUDA kernels: tested on the CPU, proven fast on the GPU.
///
/// What you will learn:
///   1. how a kernel maps threads, blocks and a grid to data, and why each body is shared with a
///      CPU twin that tests it on any machine;
///   2. to launch a kernel on tensors' data and check it against ATen with an argued tolerance;
///   3. to make a reduction fast in steps (atomics, shared-memory tree, warp shuffles, float4
///      loads with a grid sized from the SM count), measuring each step against ATen and a copy.
/// Run it: ./torchlings run 09            (or: build/dev/bin/lesson_09 --device cpu)
#include <torchlings/device.h>
#include <torchlings/kernels.h>
#include <torchlings/lesson.h>
#include <torchlings/timer.h>

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <sstream>
#include <string>

namespace {

using torchlings::fixed;
using torchlings::scientific;

using torchlings::print_field;
using torchlings::print_section;
namespace kernels = torchlings::kernels;

constexpr std::int64_t kElements = std::int64_t{1} << 24;  // 16M floats, 64 MiB per tensor
constexpr double kUnitRoundoff = 5.9604644775390625e-08;   // 2^-24: float32's rounding error

// --- 1. Threads, blocks and a grid ---
// One thread per element: blocks_for rounds up, so the last block has idle threads, and the
// body's `if (i < n)` is what keeps them from writing past the end.
void show_grid(const c10::Device& device) {
    print_section("1. Threads, blocks and a grid");
    constexpr std::int64_t n = 1000;
    const std::int64_t blocks = kernels::blocks_for(n, kernels::kBlockSize);
    print_field("Elements", std::to_string(n));
    print_field("Threads per block", std::to_string(kernels::kBlockSize));
    print_field("Blocks (rounded up)", std::to_string(blocks));
    print_field("Threads past the end", std::to_string(blocks * kernels::kBlockSize - n));
    // The same per-thread body, run by the CPU twin for every thread of that grid.
    const auto x = torch::arange(n, torch::kFloat32);
    const auto y = torch::ones({n});
    auto out = torch::full({blocks * kernels::kBlockSize}, -1.0F);
    for (std::int64_t i = 0; i < blocks * kernels::kBlockSize; ++i) {
        kernels::saxpy_body(i, 2.0F, x.const_data_ptr<float>(), y.const_data_ptr<float>(),
                            out.mutable_data_ptr<float>(), n);
    }
    print_field("Twin's out[999], out[1000]", fixed(out[999].item<float>(), 0) + ", " +
                                                  fixed(out[1000].item<float>(), 0) +
                                                  " (untouched)");
    print_field("Kernels on this device", device.is_cuda() ? "CUDA kernels" : "CPU twins");
}

// --- 2. Launching on tensors, checked against ATen ---
// saxpy() checks dtype, contiguity and device, then on CUDA sets a device guard and launches
// on the current stream (src/kernels/on_cuda.cpp); on the CPU it runs the twin.
void show_check(const c10::Device& device) {
    print_section("2. Launching on tensors, checked against ATen");
    torch::manual_seed(0);
    const auto options = torch::TensorOptions().device(device);
    const auto x = torch::randn({kElements}, options);
    const auto y = torch::randn({kElements}, options);
    const float a = 1.5F;
    // Ours is a * x + y, perhaps as one fused multiply-add: one rounding, within u |ax + y| of
    // the exact value. ATen's add(y, x, a) may round a * x first, then the sum: within
    // u |ax| + u |ax + y| (to first order). So the two differ by at most u |ax| + 2u |ax + y|; the
    // factor 1 + 2u covers the second-order term and the bound's own rounding. Computed in
    // float64, where a * x is exact; the bound is above 0 unless x and y are both 0.
    const auto ours = torchlings::saxpy(a, x, y);
    const auto aten = torch::add(y, x, a);
    const auto ax = x.to(torch::kFloat64) * a;
    const auto saxpy_bound = (ax.abs() + 2 * (ax + y.to(torch::kFloat64)).abs()) *
                             (kUnitRoundoff * (1 + 2 * kUnitRoundoff));
    const auto difference = (ours.to(torch::kFloat64) - aten.to(torch::kFloat64)).abs();
    const double worst = (difference / saxpy_bound).max().item<double>();
    print_field("SAXPY max |ours - ATen|", scientific(difference.max().item<double>(), 2));
    print_field("SAXPY bound u|ax|+2u|ax+y|", std::string(worst <= 1 ? "yes" : "NO") +
                                                  " (the closest element reaches " +
                                                  fixed(worst, 3) + " of it)");

    // The sum: every element reaches the result through at most k float32 additions, each off
    // by at most u relative, so |ours - exact| <= k u sum|x| (to first order). k follows from
    // the order of additions, which the kernel fixes: see longest_chain().
    const auto v = torch::rand({kElements}, options);  // positive: sum|x| = sum x
    const double exact = v.to(torch::kFloat64).sum().item<double>();
    const double got = torchlings::sum(v).item<double>();
    const std::int64_t k = [&] {
        if (device.is_cuda()) {
            // Step 4: T threads, each with 16 lanes; lanes added (16), block tree (8), second
            // pass grid-stride over B partials, then its tree (8). T >= 256 * SMs (one block per
            // SM at least), B <= 8 * SMs (2048 threads per SM at most).
            const auto report = torchlings::machine_report();
            const auto gpu = static_cast<std::size_t>(std::max<int>(device.index(), 0));
            const std::int64_t sms = report.gpus.at(gpu).multiprocessors;
            return kElements / (16 * 256 * sms) + 1 + 16 + 8 + (8 * sms + 255) / 256 + 8;
        }
        // CPU twin: P slices, each one thread with 16 lanes; lanes added, then slices added.
        const std::int64_t slices = at::get_num_threads();
        return kElements / (16 * slices) + 1 + 16 + slices;
    }();
    const double bound = static_cast<double>(k) * kUnitRoundoff * exact;
    print_field("Sum, float64 reference", fixed(exact, 1));
    print_field("Sum, ours (float32)", fixed(got, 1));
    print_field("Error |ours - float64|", fixed(std::abs(got - exact), 2));
    print_field("Longest add chain k", std::to_string(k));
    print_field("Bound k * 2^-24 * sum|x|", fixed(bound, 2));
    print_field("Within the bound", std::abs(got - exact) <= bound ? "yes" : "NO");
}

// --- 3. The sum in steps, each measured ---
void show_steps(const c10::Device& device) {
    print_section("3. A reduction in steps, each measured");
    const auto v = torch::rand({kElements}, torch::TensorOptions().device(device));
    const double bytes = static_cast<double>(kElements) * sizeof(float);
    const auto report = [&](const std::string& name, const std::function<void()>& work) {
        const auto t = torchlings::time_on_device(device, work, 10, 2);
        print_field(name, fixed(t.median_ms * 1000.0, 0) + " us, " +
                              fixed(bytes / (t.median_ms * 1e-3) / 1e9, 1) + " GB/s");
        return t.median_ms;
    };
    for (const auto step : kernels::kSumSteps) {
        report(std::string("sum, ") + kernels::sum_step_name(step),
               [&] { (void)torchlings::sum(v, step); });
    }
    const double aten_ms = report("sum, ATen", [&] { (void)v.sum(); });
    const double ours_ms = torchlings::time_on_device(
                               device, [&] { (void)torchlings::sum(v); }, 10, 2)
                               .median_ms;
    // A copy reads and writes each byte: its bandwidth is the practical peak for streaming.
    auto dst = torch::empty_like(v);
    const auto copy = torchlings::time_on_device(
        device, [&] { dst.copy_(v); }, 10, 2);
    print_field("copy (reads + writes)", fixed(copy.median_ms * 1000.0, 0) + " us, " +
                                             fixed(2 * bytes / (copy.median_ms * 1e-3) / 1e9, 1) +
                                             " GB/s");
    print_field("Ours / ATen (speed)", fixed(aten_ms / ours_ms, 2) + "x");
    print_field("Ours / copy (bandwidth)",
                fixed((bytes / ours_ms) / (2 * bytes / copy.median_ms), 2) + "x");
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::run_lesson(argc, argv, "torchlings lesson 09: writing CUDA kernels",
                                  [](const torchlings::LessonContext& context) {
                                      // The course's kernels exist for CUDA and the CPU; on
                                      // another device (MPS) the CPU twins stand in.
                                      const c10::Device device = context.device.is_cuda()
                                                                     ? context.device
                                                                     : c10::Device(c10::kCPU);
                                      show_grid(device);
                                      show_check(device);
                                      show_steps(device);
                                  });
}
