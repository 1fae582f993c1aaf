/// @file 01_availability.cpp
/// @brief Lesson 01 — availability checks: what this machine and this LibTorch can do.
///
/// What you will learn:
///   1. to ask LibTorch whether CUDA is usable, and how many GPUs it sees (and print that count);
///   2. to read the versions that must agree: LibTorch, its CUDA, the loaded runtime, the driver;
///   3. to describe each GPU the way NVIDIA's deviceQuery does, and to pick a device safely.
/// Run it: ./torchlings run 01            (or: build/dev/bin/lesson_01 --device cpu)
#include <torchlings/device.h>
#include <torchlings/lesson.h>

// Only the LibTorch headers this file uses: the CUDA queries, the tensor and one factory
// function. <torch/torch.h> would bring all of LibTorch and take four times as long to compile
// (README, section 5), and lesson 01 is the first thing a fresh machine builds.
#include <ATen/core/Tensor.h>
#include <ATen/ops/arange.h>
#include <torch/cuda.h>

#include <iostream>
#include <sstream>
#include <string>

namespace {

std::string yes_no(bool value) { return value ? "true" : "false"; }

// --- 1. Is CUDA available? ---
// torch::cuda::is_available() is device_count() > 0: it needs a CUDA build of LibTorch, a driver
// and at least one visible GPU. device_count() returns c10::DeviceIndex, an 8-bit integer in
// recent LibTorch: std::cout would print it as a character, so cast it to int first.
void show_availability(const torchlings::MachineReport& report) {
    torchlings::print_section("CUDA");
    torchlings::print_field("CUDA available", yes_no(torch::cuda::is_available()));
    torchlings::print_field("CUDA device count",
                            std::to_string(static_cast<int>(torch::cuda::device_count())));
    torchlings::print_field("cuDNN available", yes_no(torch::cuda::cudnn_is_available()));
    torchlings::print_field("LibTorch built with CUDA", yes_no(report.torch_built_with_cuda));
}

// --- 2. Versions that must agree ---
// Two CUDA versions, often different: the one LibTorch was compiled for (its kernels need it) and
// the libcudart this process loaded (the toolkit's, for the course's own kernels). The driver
// decides by MAJOR version: within one, an older driver runs them (minor-version compatibility);
// across majors CUDA does not initialise. LibTorch's own version decides the C++ API you may use.
void show_versions(const torchlings::MachineReport& report) {
    torchlings::print_section("Versions");
    torchlings::print_field("LibTorch", report.torch_version);
    torchlings::print_field("LibTorch built for CUDA",
                            torchlings::format_cuda_version(report.cuda_built_version));
    torchlings::print_field("CUDA runtime loaded",
                            torchlings::format_cuda_version(report.cuda_runtime_version));
    torchlings::print_field("CUDA driver supports",
                            torchlings::format_cuda_version(report.cuda_driver_version));
    torchlings::print_field(
        "cuDNN", report.cudnn_version > 0 ? std::to_string(report.cudnn_version) : "none");
    torchlings::print_field("Course CUDA kernels",
                            report.project_cuda_kernels ? "compiled" : "not compiled");
    torchlings::print_field("CPU threads (intra-op)", std::to_string(report.cpu_threads));
}

// --- 3. Every GPU, deviceQuery style ---
void show_gpus(const torchlings::MachineReport& report) {
    for (const auto& gpu : report.gpus) {
        torchlings::print_section("GPU " + std::to_string(gpu.index) + ": " + gpu.name);
        torchlings::print_field("  Compute capability",
                                std::to_string(gpu.major) + "." + std::to_string(gpu.minor));
        torchlings::print_field("  Multiprocessors", std::to_string(gpu.multiprocessors));
        torchlings::print_field("  Total memory", torchlings::format_bytes(gpu.total_memory));
        torchlings::print_field("  Free memory", torchlings::format_bytes(gpu.free_memory));
        torchlings::print_field("  Max threads per block",
                                std::to_string(gpu.max_threads_per_block));
        torchlings::print_field("  Warp size", std::to_string(gpu.warp_size));
    }
}

// --- 4. Other accelerators ---
void show_other_accelerators(const torchlings::MachineReport& report) {
    torchlings::print_section("Other accelerators");
    torchlings::print_field("MPS (Apple) available", yes_no(report.mps_available));
}

// --- 5. Choosing a device, and using it ---
// choose_device() never falls back silently: "cuda" on a machine without a GPU is an error. "auto"
// is the fallback, made explicit: CUDA, then MPS, then CPU.
void show_choice(const torchlings::LessonContext& context) {
    torchlings::print_section("Device choice");
    torchlings::print_field("Requested", context.requested);
    torchlings::print_field("Chosen", context.device.str());
    torchlings::print_field("Usable devices", torchlings::describe_available_devices());
    const auto x = at::arange(1, 5, at::TensorOptions().dtype(at::kFloat).device(context.device));
    std::ostringstream made;
    made << "arange(1, 5) on " << x.device() << ", sum " << x.sum().item<float>();
    torchlings::print_field("A tensor made there", made.str());
}

// --- 6. Why CUDA may be unavailable ---
void show_notes(const torchlings::MachineReport& report) {
    torchlings::print_section("Notes");
    if (report.notes.empty()) {
        std::cout << "- CUDA is available: nothing to explain.\n";
    }
    for (const auto& note : report.notes) {
        std::cout << "- " << note << '\n';
    }
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::run_lesson(argc, argv, "torchlings lesson 01: availability checks",
                                  [](const torchlings::LessonContext& context) {
                                      const auto report = torchlings::machine_report();
                                      show_availability(report);
                                      show_versions(report);
                                      show_gpus(report);
                                      show_other_accelerators(report);
                                      show_choice(context);
                                      show_notes(report);
                                  });
}
