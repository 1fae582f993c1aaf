/// @file 08_performance.cpp
/// @brief Lesson 08 — Performance: timing GPU work honestly, CPU against GPU, mixed precision.
///
/// What you will learn:
///   1. why a host clock around a GPU op measures the launch, and how to time it honestly
///      (warm-up, synchronise or CUDA events, repetitions, the median);
///   2. where a device beats the CPU and where launch and copy overheads make the CPU win, read
///      through FLOPs, bytes and the roofline;
///   3. mixed precision from C++: an RAII autocast guard, and loss scaling on ATen's own ops.
/// Run it: ./torchlings run 08            (or: build/dev/bin/lesson_08 --device cpu --json t.json)
#include <torchlings/device.h>
#include <torchlings/lesson.h>
#include <torchlings/timer.h>

#include "lesson08.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#if defined(__APPLE__)
#include <sys/sysctl.h>  // sysctlbyname: macOS names its CPU there (it has no /proc)
#endif

// The lesson's own pieces, not an API: kept out of the generated documentation.
/** @cond */
namespace lesson08 {

std::string ms(double value) {
    const int digits = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : value >= 0.1 ? 3 : 4;
    return torchlings::fixed(value, digits) + " ms";
}

std::string cpu_flag(const std::string& flag) {
    std::ifstream cpuinfo("/proc/cpuinfo");
    if (!cpuinfo) {
        return "unknown";
    }
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("flags", 0) == 0) {
            return (" " + line + " ").find(" " + flag + " ") != std::string::npos ? "yes" : "no";
        }
    }
    return "unknown";
}

torchlings::TimingSummary time_op(const c10::Device& device, const std::function<void()>& work) {
    return torchlings::time_on_device(device, work, kRepetitions, kWarmup);
}

bool gpu_section(const std::string& title, const c10::Device& device) {
    torchlings::print_section(title);
    if (!device.is_cuda()) {
        std::cout << "- skipped: needs --device cuda (this run uses " << device.str() << ")\n";
    }
    return device.is_cuda();
}

}  // namespace lesson08
/** @endcond */

namespace {

using lesson08::cpu_flag;
using lesson08::kRepetitions;
using lesson08::kWarmup;
using lesson08::ms;
using lesson08::Record;
using lesson08::time_op;

using torchlings::fixed;
using torchlings::scientific;

using torchlings::print_field;
using torchlings::print_section;
using torchlings::TimingSummary;

// --- The measurements the demo keeps for --json (Record: lesson08.h) ---

std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        if (static_cast<unsigned char>(c) >= 0x20) {
            out += c;
        }
    }
    return out + "\"";
}

std::string cpu_model() {
#if defined(__APPLE__)
    char name[256] = {};
    std::size_t size = sizeof(name) - 1;
    if (sysctlbyname("machdep.cpu.brand_string", name, &size, nullptr, 0) == 0) {
        return name;  // "Apple M2"
    }
#endif
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    }
    return "unknown (no /proc/cpuinfo)";
}

void write_json(const std::string& path, const c10::Device& device,
                const std::vector<Record>& records) {
    std::ofstream out(path);
    if (!out) {
        throw std::runtime_error("cannot write " + path + ": expected a writable file path");
    }
    const auto report = torchlings::machine_report();
    out << "{\n  \"lesson\": \"08_performance\",\n  \"torch\": "
        << json_string(report.torch_version) << ",\n  \"device\": " << json_string(device.str())
        << ",\n  \"cpu\": " << json_string(cpu_model())
        << ",\n  \"cpu_threads\": " << report.cpu_threads << ",\n  \"gpu\": "
        << json_string(report.gpus.empty() ? std::string("none") : report.gpus.front().name)
        << ",\n  \"unit\": \"ms\",\n  \"measurements\": [";
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto& r = records[i];
        out << (i == 0 ? "\n" : ",\n") << "    {\"op\": " << json_string(r.op)
            << ", \"size\": " << r.size << ", \"device\": " << json_string(r.device)
            << ", \"includes_copies\": " << (r.includes_copies ? "true" : "false")
            << ", \"median_ms\": " << r.timing.median_ms << ", \"min_ms\": " << r.timing.min_ms
            << ", \"max_ms\": " << r.timing.max_ms << ", \"repetitions\": " << r.timing.repetitions
            << "}";
    }
    out << "\n  ]\n}\n";
}

void show_machine(const c10::Device& device) {
    print_section("The machine");
    print_field("Device", device.str());
    print_field("CPU", cpu_model());
    print_field("ATen intra-op threads", std::to_string(at::get_num_threads()));
    print_field("LibTorch", torchlings::machine_report().torch_version);
}

// --- 1. Timing honestly ---
// A CUDA op returns once it is queued. The first call also pays one-time costs: on a GPU the
// context, the cuBLAS handle and the allocator's first blocks; on the CPU the thread pool and the
// first allocations. So: warm up, synchronise (or use CUDA events), repeat, take the median.
void show_timing(const c10::Device& device, std::vector<Record>& records) {
    print_section("1. Timing honestly: a 512 x 512 matmul");
    constexpr std::int64_t n = 512;
    const auto a = torch::randn({n, n}, device);
    const auto b = torch::randn({n, n}, device);
    torchlings::synchronize(device);
    using Clock = std::chrono::steady_clock;
    const auto elapsed_ms = [](Clock::time_point since) {
        return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
    };

    auto start = Clock::now();
    auto c = torch::matmul(a, b);  // the first matmul of this process on this device
    torchlings::synchronize(device);
    print_field("First call, synchronised", ms(elapsed_ms(start)) + " (one-time costs included)");

    start = Clock::now();
    c = torch::matmul(a, b);
    const double naive = elapsed_ms(start);  // no synchronise: on a GPU, only the launch
    torchlings::synchronize(device);
    print_field("Host clock, no synchronise", ms(naive));

    start = Clock::now();
    c = torch::matmul(a, b);
    torchlings::synchronize(device);
    print_field("Host clock, synchronised", ms(elapsed_ms(start)));

    const auto timing = torchlings::time_on_device(
        device, [&] { c = torch::matmul(a, b); }, 10, kWarmup);
    records.push_back({"matmul_timer", n, device.str(), timing, false});
    print_field("Device timer, median of 10", ms(timing.median_ms) + " (min " + ms(timing.min_ms) +
                                                  ", max " + ms(timing.max_ms) +
                                                  "; 2 warm-up runs)");
    std::cout << "- On a GPU the unsynchronised figure is the time to queue the kernel; the "
                 "others wait for it. On the CPU the op runs before it returns: all agree.\n"
              << "- torchlings::DeviceTimer records CUDA events on the GPU and synchronises "
                 "around a steady clock elsewhere; time_on_device() adds warm-up and the median.\n";
}

// --- 2. Hidden synchronisation ---
// .item(), printing a tensor, and copying to the host all wait for the device. One per training
// step makes the host wait for every step instead of queueing the next one.
void show_hidden_sync(const c10::Device& device) {
    print_section("2. Hidden synchronisation in a loop");
    constexpr int kSteps = 50;
    const auto x = torch::randn({128, 128}, device);
    const auto w = torch::randn({128, 128}, device) / 16;
    const auto with_item = torchlings::time_on_device(
        device,
        [&] {
            double total = 0.0;
            for (int i = 0; i < kSteps; ++i) {
                total += torch::matmul(x, w).pow(2).mean().item<double>();  // waits every step
            }
            (void)total;
        },
        kRepetitions, 1);
    const auto on_device = torchlings::time_on_device(
        device,
        [&] {
            auto total = torch::zeros({}, device);
            for (int i = 0; i < kSteps; ++i) {
                total += torch::matmul(x, w).pow(2).mean();  // stays queued on the device
            }
            (void)total.item<double>();  // one wait, at the end
        },
        kRepetitions, 1);
    print_field(".item() every step", ms(with_item.median_ms) + " for 50 steps");
    print_field("Summed on the device", ms(on_device.median_ms) + " for 50 steps, one .item()");
    std::cout << "- On a GPU the first loop stalls the queue 50 times; the second keeps it full. "
                 "On the CPU there is no queue: .item() reads a value that is already there, so a "
                 "difference between the two loops there is noise, not waiting.\n";
}

// --- 3. CPU against the device, by size ---
/// Times `op` on the CPU and, when the device is another one, there too (with and without the
/// copies in and out). Keeps the best CPU GFLOP/s and GB/s seen, and returns this line's GB/s.
double sweep_line(const std::string& op, std::int64_t size, const c10::Device& device, double flops,
                  double bytes, std::vector<Record>& records, double& best_gflops,
                  double& best_gb_s) {
    // The inputs, and the output written in place: a fresh output of every add would time the
    // allocator too (on the CPU, a large one is new pages from the kernel on each call).
    const auto make = [&](const c10::Device& d) {
        return op == "matmul"
                   ? std::vector<torch::Tensor>{torch::randn({size, size}, d),
                                                torch::randn({size, size}, d),
                                                torch::empty({size, size}, d)}
                   : std::vector<torch::Tensor>{torch::randn({size}, d), torch::randn({size}, d),
                                                torch::empty({size}, d)};
    };
    const auto run = [&](std::vector<torch::Tensor>& in) {
        return op == "matmul" ? torch::matmul_out(in[2], in[0], in[1])
                              : torch::add_out(in[2], in[0], in[1]);
    };
    const c10::Device cpu(c10::kCPU);
    auto host = make(cpu);
    const auto on_cpu = time_op(cpu, [&] { run(host); });
    records.push_back({op, size, "cpu", on_cpu, false});
    best_gflops = std::max(best_gflops, flops / on_cpu.median_ms / 1e6);
    best_gb_s = std::max(best_gb_s, bytes / on_cpu.median_ms / 1e6);
    std::string text = "cpu " + ms(on_cpu.median_ms) + " (" +
                       fixed(flops / on_cpu.median_ms / 1e6, 1) + " GFLOP/s, " +
                       fixed(bytes / on_cpu.median_ms / 1e6, 1) + " GB/s)";
    if (device != cpu) {
        auto there = make(device);
        const auto on_device = time_op(device, [&] { run(there); });
        // With copies: the inputs start on the host and the result must come back.
        const auto copies = time_op(device, [&] {
            std::vector<torch::Tensor> moved{host[0].to(device), host[1].to(device), there[2]};
            (void)run(moved).cpu();
        });
        records.push_back({op, size, device.str(), on_device, false});
        records.push_back({op, size, device.str(), copies, true});
        text += "; " + device.str() + " " + ms(on_device.median_ms) + ", " + ms(copies.median_ms) +
                " with copies; speedup " + fixed(on_cpu.median_ms / on_device.median_ms, 1) +
                "x, " + fixed(on_cpu.median_ms / copies.median_ms, 1) + "x with copies";
    }
    print_field(op + " " + std::to_string(size), text);
    return bytes / on_cpu.median_ms / 1e6;
}

void show_sweep(const c10::Device& device, std::vector<Record>& records) {
    print_section("3. CPU against the device, by size (float32, median of 5)");
    double best_gflops = 0.0;
    double best_gb_s = 0.0;
    for (const std::int64_t n : {64, 128, 256, 512, 1024}) {
        const double d = static_cast<double>(n);
        sweep_line("matmul", n, device, 2 * d * d * d, 3 * d * d * 4, records, best_gflops,
                   best_gb_s);
    }
    // The last add, 3 x 128 MiB, is far larger than any CPU's last-level cache: its bandwidth is
    // main memory's (DRAM), the roof that the roofline model means. Smaller adds run from cache.
    double unused_gflops = 0.0;
    double dram_gb_s = 0.0;
    for (const std::int64_t n :
         {std::int64_t{1} << 10, std::int64_t{1} << 14, std::int64_t{1} << 18,
          std::int64_t{1} << 22, std::int64_t{1} << 25}) {
        const double d = static_cast<double>(n);
        dram_gb_s = sweep_line("add", n, device, d, 3 * d * 4, records, unused_gflops, best_gb_s);
    }
    print_field("CPU compute seen", fixed(best_gflops, 1) + " GFLOP/s (the best matmul)");
    print_field("CPU memory bandwidth", fixed(dram_gb_s, 1) + " GB/s (the add of 2^25, from DRAM)");
    print_field("CPU cache bandwidth", fixed(best_gb_s, 1) + " GB/s (the best add, from cache)");
    print_field("Ridge point", fixed(best_gflops / dram_gb_s, 1) +
                                   " FLOP/byte from DRAM: below it memory limits, above it "
                                   "compute (" +
                                   fixed(best_gflops / best_gb_s, 1) + " from cache)");
    std::cout << "- An add does 1 FLOP per 12 bytes: memory-bound on every device. An n x n "
                 "matmul does n/6 FLOP per byte: compute-bound once n is large.\n"
              << "- Small ops are dominated by fixed costs (a launch, a copy, a thread wake-up), "
                 "so a GPU only wins once the work is large enough to hide them.\n";
}

/// Puts LibTorch's float32 matmul precision back as it was when the scope ends (an exception in
/// between included), whatever it was: "highest" is the default, unless TORCH_ALLOW_TF32_CUBLAS_
/// OVERRIDE=1 made it "high".
class MatmulPrecisionGuard {
  public:
    MatmulPrecisionGuard() : saved_(at::globalContext().float32MatmulPrecision()) {}
    MatmulPrecisionGuard(const MatmulPrecisionGuard&) = delete;
    MatmulPrecisionGuard& operator=(const MatmulPrecisionGuard&) = delete;
    ~MatmulPrecisionGuard() {
        switch (saved_) {
            case at::Float32MatmulPrecision::HIGH:
                at::globalContext().setFloat32MatmulPrecision("high");
                break;
            case at::Float32MatmulPrecision::MEDIUM:
                at::globalContext().setFloat32MatmulPrecision("medium");
                break;
            default:
                at::globalContext().setFloat32MatmulPrecision("highest");
        }
    }

  private:
    at::Float32MatmulPrecision saved_;
};

/// Larger matmuls, GPU only: the CPU would take seconds each.
void show_gpu_sweep(const c10::Device& device, std::vector<Record>& records) {
    if (!lesson08::gpu_section("GPU: large matmuls", device)) {
        return;
    }
    for (const std::int64_t n : {2048, 4096, 8192}) {
        const auto a = torch::randn({n, n}, device);
        const auto b = torch::randn({n, n}, device);
        const auto t = time_op(device, [&] { (void)torch::matmul(a, b); });
        records.push_back({"matmul", n, device.str(), t, false});
        const double d = static_cast<double>(n);
        print_field(
            "matmul " + std::to_string(n),
            ms(t.median_ms) + " (" + fixed(2 * d * d * d / t.median_ms / 1e9, 1) + " TFLOP/s)");
    }
    // TF32 (section 3 of the README): the same float32 matmul on the tensor cores, which round its
    // inputs to a 10-bit mantissa. Off by default in LibTorch; "high" is Python's
    // torch.set_float32_matmul_precision("high").
    constexpr std::int64_t n = 4096;
    const auto a = torch::randn({n, n}, device);
    const auto b = torch::randn({n, n}, device);
    const auto exact = torch::matmul(a.to(torch::kFloat64), b.to(torch::kFloat64));
    const double largest = exact.abs().max().item<double>();
    auto& context = at::globalContext();
    const MatmulPrecisionGuard restore;
    for (const bool tf32 : {false, true}) {
        context.setFloat32MatmulPrecision(tf32 ? "high" : "highest");
        const auto t = time_op(device, [&] { (void)torch::matmul(a, b); });
        const double error =
            (torch::matmul(a, b).to(torch::kFloat64) - exact).abs().max().item<double>() / largest;
        const double d = static_cast<double>(n);
        print_field(std::string("matmul 4096, TF32 ") + (tf32 ? "on" : "off"),
                    ms(t.median_ms) + " (" + fixed(2 * d * d * d / t.median_ms / 1e9, 1) +
                        " TFLOP/s), largest error " + scientific(error) + " of the largest value");
    }
    const auto gpus = torchlings::machine_report().gpus;
    const auto index = static_cast<std::size_t>(device.has_index() ? device.index() : 0);
    if (index < gpus.size() && gpus[index].major < 8) {
        std::cout << "- This GPU (compute capability " << gpus[index].major << "."
                  << gpus[index].minor
                  << ") has no TF32: tensor cores take float32 from Ampere (8.0) on, so both "
                     "lines ran plain FP32.\n";
    }
}

// --- 4. A small MLP training step ---
void show_training_step(const c10::Device& device, std::vector<Record>& records) {
    print_section("4. One training step of a small MLP (784-256-10, SGD)");
    const c10::Device cpu(c10::kCPU);
    for (const std::int64_t batch : {64, 1024}) {
        std::string text;
        for (const auto& d : device == cpu ? std::vector<c10::Device>{cpu}
                                           : std::vector<c10::Device>{cpu, device}) {
            torch::manual_seed(0);
            torch::nn::Sequential model(torch::nn::Linear(784, 256), torch::nn::ReLU(),
                                        torch::nn::Linear(256, 10));
            model->to(d);
            torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.01));
            const auto x = torch::randn({batch, 784}, d);
            const auto y =
                torch::randint(0, 10, {batch}, torch::TensorOptions(d).dtype(torch::kLong));
            const auto t = time_op(d, [&] {
                sgd.zero_grad();
                torch::nn::functional::cross_entropy(model->forward(x), y).backward();
                sgd.step();
            });
            records.push_back({"mlp_step", batch, d.str(), t, false});
            text += (text.empty() ? "" : ", ") + d.str() + " " + ms(t.median_ms);
        }
        print_field("batch " + std::to_string(batch), text + " per step");
    }
}

// --- 5. and 6. Mixed precision and loss scaling: in mixed_precision.cpp ---

// --- GPU: asynchronous copies, a second stream, a CUDA graph: in gpu_streams.cpp ---

}  // namespace

int main(int argc, char** argv) {
    std::string json_path;
    std::string trace_path;
    return torchlings::run_lesson(
        argc, argv, "torchlings lesson 08: performance",
        {{"--json", "also write every measurement to this JSON file", &json_path},
         {"--trace", "also write section 7's profile as a Chrome trace (for Perfetto)",
          &trace_path}},
        [&](const torchlings::LessonContext& context) {
            const auto& device = context.device;
            std::vector<Record> records;
            show_machine(device);
            show_timing(device, records);
            show_hidden_sync(device);
            show_sweep(device, records);
            show_gpu_sweep(device, records);
            show_training_step(device, records);
            lesson08::show_autocast(device, records);
            lesson08::show_loss_scaling();
            lesson08::show_profile(device, trace_path);
            lesson08::show_async(device);
            lesson08::show_cuda_graph(device);
            if (!json_path.empty()) {
                write_json(json_path, device, records);
                print_field("Measurements written to", json_path);
            }
        });
}
