/// @file profiling.cpp
/// @brief Lesson 08, section 7: where a training step's time goes, with LibTorch's profiler.
#include <torchlings/device.h>
#include <torchlings/lesson.h>

#include <torch/csrc/autograd/profiler_kineto.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lesson08.h"

namespace lesson08 {

using torchlings::print_field;
using torchlings::print_section;

/// Profiles three training steps of section 4's MLP with LibTorch's profiler (Kineto, the one
/// behind Python's torch.profiler): the CPU's operators, and on a GPU its kernels too. Prints the
/// operators that took longest and, with --trace FILE, writes a Chrome trace for Perfetto.
void show_profile(const c10::Device& device, const std::string& trace_path) {
    namespace profiler = torch::autograd::profiler;
    using torch::profiler::impl::ActivityType;
    using torch::profiler::impl::ProfilerConfig;
    using torch::profiler::impl::ProfilerState;
    print_section("7. Profiling three training steps (batch 256)");
    // Kineto logs each start and stop on stderr (and, without a GPU driver, an error about the
    // missing GPU); level 6 silences it. A KINETO_LOG_LEVEL of your own wins.
    setenv("KINETO_LOG_LEVEL", "6", /*overwrite=*/0);
    torch::manual_seed(0);
    torch::nn::Sequential model(torch::nn::Linear(784, 256), torch::nn::ReLU(),
                                torch::nn::Linear(256, 10));
    model->to(device);
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.01));
    const auto x = torch::randn({256, 784}, device);
    const auto y = torch::randint(0, 10, {256}, torch::TensorOptions(device).dtype(torch::kLong));
    const auto step = [&] {
        sgd.zero_grad();
        torch::nn::functional::cross_entropy(model->forward(x), y).backward();
        sgd.step();
    };
    step();  // warm-up: one-time costs stay out of the profile
    torchlings::synchronize(device);

    std::set<ActivityType> activities{ActivityType::CPU};
    if (device.is_cuda()) {
        activities.insert(ActivityType::CUDA);
    }
    const ProfilerConfig config(ProfilerState::KINETO);
    std::unique_ptr<profiler::ProfilerResult> result;
    try {
        profiler::prepareProfiler(config, activities);
        profiler::enableProfiler(config, activities);
        for (int i = 0; i < 3; ++i) {
            RECORD_USER_SCOPE("training step");  // a named range of your own in the trace
            step();
        }
        torchlings::synchronize(device);
        result = profiler::disableProfiler();
    } catch (const c10::Error& error) {
        std::cout << "- skipped: this LibTorch's profiler refused: "
                  << torchlings::first_line(error) << "\n";
        return;
    }

    // Total time per operator name, on the CPU (nested operators count in their callers too:
    // aten::linear includes its aten::addmm).
    struct Total {
        int calls = 0;
        double ms = 0.0;
    };
    std::map<std::string, Total> cpu_ops;
    std::map<std::string, Total> gpu_kernels;
    double steps_ms = 0.0;
    for (const auto& event : result->events()) {
        const double event_ms = static_cast<double>(event.durationNs()) / 1e6;
        if (event.name() == "training step") {
            steps_ms += event_ms;
            continue;
        }
        if (event.name() == "Activity Buffer Request") {
            continue;  // the profiler's own overhead on a GPU (CUPTI's buffers), not the program's
        }
        auto& totals = event.deviceType() == c10::DeviceType::CUDA ? gpu_kernels : cpu_ops;
        totals[event.name()].calls += 1;
        totals[event.name()].ms += event_ms;
    }
    const auto top = [](const std::map<std::string, Total>& totals, std::size_t n) {
        std::vector<std::pair<std::string, Total>> sorted(totals.begin(), totals.end());
        std::sort(sorted.begin(), sorted.end(),
                  [](const auto& a, const auto& b) { return a.second.ms > b.second.ms; });
        sorted.resize(std::min(n, sorted.size()));
        return sorted;
    };
    print_field("Events recorded", std::to_string(result->events().size()) + " (" +
                                       std::to_string(cpu_ops.size()) +
                                       " operator names on the CPU, " +
                                       std::to_string(gpu_kernels.size()) + " GPU kernels)");
    print_field("The three steps", ms(steps_ms) + " in all");
    int rank = 1;
    for (const auto& [name, total] : top(cpu_ops, 5)) {
        print_field("Operator " + std::to_string(rank++),
                    name + ": " + ms(total.ms) + " in " + std::to_string(total.calls) + " calls");
    }
    if (trace_path.empty()) {
        print_field("Trace", "not written; --trace FILE writes one to open in ui.perfetto.dev");
    } else {
        result->save(trace_path);
        print_field("Trace written to", trace_path + " (open it in ui.perfetto.dev)");
    }
    if (!device.is_cuda()) {
        return;
    }
    print_section("GPU: the kernels of those three steps");
    if (gpu_kernels.empty()) {
        std::cout << "- skipped: the profiler recorded no GPU kernel (CUPTI, which records them, "
                     "may not be allowed in this container)\n";
        return;
    }
    rank = 1;
    for (const auto& [name, total] : top(gpu_kernels, 3)) {
        std::string shown = name.size() > 60 ? name.substr(0, 57) + "..." : name;
        print_field("GPU kernel " + std::to_string(rank++),
                    shown + ": " + ms(total.ms) + " in " + std::to_string(total.calls) + " calls");
    }
}

}  // namespace lesson08
