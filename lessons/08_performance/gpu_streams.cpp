/// @file gpu_streams.cpp
/// @brief Lesson 08's GPU sections on the host's side of the work: an asynchronous copy from
/// pinned memory, a copy on a second stream beside a matmul, and a launch-bound step replayed as
/// a CUDA graph. Each prints "skipped" without a GPU.
#include <torchlings/device.h>
#include <torchlings/lesson.h>

#include <torch/torch.h>

// Streams and graphs need LibTorch's CUDA libraries (libc10_cuda, libtorch_cuda), which a
// CPU-only LibTorch does not link even where CUDA headers are found (TL_TORCH_CUDA, set by
// cmake/TorchlingsTorch.cmake).
#if TL_TORCH_CUDA
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
/// 1 when CUDA streams are compiled in: this LibTorch's CUDA libraries are linked.
#define TL_HAVE_CUDA_STREAMS 1
#else
/// 1 when CUDA streams are compiled in: this LibTorch's CUDA libraries are linked.
#define TL_HAVE_CUDA_STREAMS 0
#endif

#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>

#include "lesson08.h"

// The lesson's own pieces, not an API: kept out of the generated documentation.
/** @cond */
namespace lesson08 {

using torchlings::print_field;

#if !TL_HAVE_CUDA_STREAMS
namespace {

/// A GPU section that a CPU-only LibTorch cannot compile.
void cpu_only_section(const std::string& title, const c10::Device& device) {
    torchlings::print_section(title);
    std::cout << "- skipped: this LibTorch is CPU-only (device " << device.str() << ")\n";
}

}  // namespace
#endif

void show_async(const c10::Device& device) {
#if TL_HAVE_CUDA_STREAMS
    if (!gpu_section("GPU: asynchronous copies and a second stream", device)) {
        return;
    }
    constexpr std::int64_t kElements = std::int64_t{16} << 20;  // 64 MiB of float32
    const auto pageable = torch::randn({kElements});
    const auto pinned = pageable.pin_memory();
    const auto copy_ms = [&](const torch::Tensor& src, bool non_blocking) {
        return time_op(device, [&] { (void)src.to(device, non_blocking); }).median_ms;
    };
    print_field("64 MiB from pageable memory", ms(copy_ms(pageable, false)));
    print_field("64 MiB from pinned memory", ms(copy_ms(pinned, true)));
    using Clock = std::chrono::steady_clock;
    auto start = Clock::now();
    auto moved = pinned.to(device, /*non_blocking=*/true);
    const double returned = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    torchlings::synchronize(device);
    print_field("non_blocking call returned", ms(returned) + " after it was made");

    const auto a = torch::randn({4096, 4096}, device);
    const auto serial = time_op(device, [&] {
        (void)torch::matmul(a, a);
        (void)pinned.to(device, true);
    });
    const auto side = c10::cuda::getStreamFromPool(false, device.index());
    const auto overlapped = time_op(device, [&] {
        {
            const c10::cuda::CUDAStreamGuard on_side(side);
            moved = pinned.to(device, true);  // queued on the side stream
        }
        (void)torch::matmul(a, a);  // on the current stream, at the same time
        side.synchronize();
    });
    print_field("matmul then copy", ms(serial.median_ms));
    print_field("copy on a second stream", ms(overlapped.median_ms));
#else
    cpu_only_section("GPU: asynchronous copies and a second stream", device);
#endif
}

// A launch-bound step: 200 element-wise kernels on 4,096 floats, each one over in about the
// time its launch takes. Eager, the GPU waits for the host between kernels; captured once into a
// CUDA graph, one replay launches all 200.
void show_cuda_graph(const c10::Device& device) {
#if TL_HAVE_CUDA_STREAMS
    if (!gpu_section("GPU: a launch-bound step replayed as a CUDA graph", device)) {
        return;
    }
    constexpr int kKernels = 200;
    const auto input = torch::randn({4096}, device);
    const auto step = [&] {
        auto y = input;
        for (int i = 0; i < kKernels / 2; ++i) {
            y = y * 1.0001F + 0.0001F;  // two kernels: a multiply, an add
        }
        return y;
    };
    torch::Tensor output;
    const auto eager = time_op(device, [&] { output = step(); });
    // Capture runs on a side stream; a warm-up there first, so that nothing is allocated or loaded
    // for the first time while recording. The graph keeps the addresses it recorded: `input` must
    // stay alive, and a replay writes `output`'s memory again.
    at::cuda::CUDAGraph graph;
    const auto capture = c10::cuda::getStreamFromPool(false, device.index());
    {
        const c10::cuda::CUDAStreamGuard on_capture(capture);
        output = step();
        capture.synchronize();
        graph.capture_begin();
        output = step();  // recorded, not run
        graph.capture_end();
    }
    const auto replayed = time_op(device, [&] { graph.replay(); });
    const auto expected = step();
    torchlings::synchronize(device);
    const double ratio = eager.median_ms / replayed.median_ms;
    print_field("Eager, " + std::to_string(kKernels) + " kernels", ms(eager.median_ms));
    print_field("One graph replay",
                ms(replayed.median_ms) + " (" + torchlings::fixed(ratio, 1) + "x the eager speed)");
    print_field("Same result", output.equal(expected) ? "yes" : "NO");
#else
    cpu_only_section("GPU: a launch-bound step replayed as a CUDA graph", device);
#endif
}

}  // namespace lesson08
/** @endcond */
