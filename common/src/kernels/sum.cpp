/// @file sum.cpp
/// @brief The sum on the CPU: its CPU twins (the GPU steps' bodies in loops), the grid sizing,
/// and the tensor-level entry point. The GPU side is sum.cu and on_cuda.cpp.
#include "../detail.h"
#include "tensor_checks.h"
#include "torchlings/kernels.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace torchlings {
namespace {

float run_body(kernels::SumStep step, std::int64_t thread, std::int64_t num_threads, const float* x,
               std::int64_t n) {
    if (step == kernels::SumStep::kVectorised) {
        return kernels::sum_vectorised_body(thread, num_threads, x, n);
    }
    return kernels::sum_grid_stride_body(thread, num_threads, x, n);
}

// One slice, as a grid of one thread: the loop walks memory in order, as a CPU core wants.
TL_CPU_CLONES float sum_slice_vectorised(const float* __restrict x, std::int64_t n) {
    return kernels::sum_vectorised_body(0, 1, x, n);
}

// One slice as a grid of sixteen threads, one per vector lane (see CpuLanes); the n % 16 floats
// past the last full group are a one-thread grid of their own.
TL_CPU_CLONES float sum_slice_grid_stride(const float* __restrict x, std::int64_t n) {
    const std::int64_t groups = n / kernels::kCpuLanes;
    const kernels::CpuLanes lanes =
        kernels::sum_grid_stride_body(0, 1, reinterpret_cast<const kernels::CpuLanes*>(x), groups);
    float total = kernels::sum_grid_stride_body(0, 1, x + groups * kernels::kCpuLanes,
                                                n - groups * kernels::kCpuLanes);
    for (const float lane : lanes.lane) {
        total += lane;
    }
    return total;
}

}  // namespace

at::Tensor sum(const at::Tensor& x, kernels::SumStep step) {
    kernels::detail::check_float_contiguous(x, "sum", "x");
    if (x.is_cuda()) {
        return detail::sum_cuda(x, step);
    }
    return at::scalar_tensor(kernels::sum_cpu(x.const_data_ptr<float>(), x.numel(), step),
                             x.options());
}

namespace kernels {

float sum_cpu_grid(const float* x, std::int64_t n, std::int64_t num_threads, SumStep step) {
    if (num_threads < 1) {
        throw std::invalid_argument("sum_cpu_grid: expected num_threads >= 1, got " +
                                    std::to_string(num_threads));
    }
    float total = 0.0F;
    for (std::int64_t t = 0; t < num_threads; ++t) {
        total += run_body(step, t, num_threads, x, n);
    }
    return total;
}

float sum_cpu(const float* x, std::int64_t n, SumStep step) {
    if (n <= 0) {
        return 0.0F;
    }
    // One contiguous slice per ATen thread; each slice is a one-thread grid over its own memory.
    const std::int64_t slices = std::min<std::int64_t>(
        at::get_num_threads(), (n + detail::kParallelGrain - 1) / detail::kParallelGrain);
    const std::int64_t per_slice = (n + slices - 1) / slices;
    std::vector<float> partials(static_cast<std::size_t>(slices), 0.0F);
    at::parallel_for(0, slices, 1, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t s = begin; s < end; ++s) {
            const std::int64_t first = s * per_slice;
            const std::int64_t count = std::min(per_slice, n - first);
            if (count <= 0) {
                continue;
            }
            partials[static_cast<std::size_t>(s)] = step == SumStep::kVectorised
                                                        ? sum_slice_vectorised(x + first, count)
                                                        : sum_slice_grid_stride(x + first, count);
        }
    });
    float total = 0.0F;
    for (const float p : partials) {
        total += p;
    }
    return total;
}

float tree_reduce_cpu(float* shared, int block) {
    if (block < 1 || (block & (block - 1)) != 0) {
        throw std::invalid_argument("tree_reduce_cpu: expected a power-of-two block >= 1, got " +
                                    std::to_string(block));
    }
    // On the GPU every thread runs one stride at a time with __syncthreads() in between; here the
    // virtual threads of one stride run one after another, which is the same because they touch
    // disjoint slots.
    for (int stride = block / 2; stride > 0; stride /= 2) {
        for (int tid = 0; tid < block; ++tid) {
            tree_step_body(tid, stride, shared);
        }
    }
    return shared[0];
}

}  // namespace kernels
}  // namespace torchlings
