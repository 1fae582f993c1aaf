/// @file kernels.cpp
/// @brief Argument checks, dispatch and the CPU twins of the course's kernels.
#include "torchlings/kernels.h"

#include "detail.h"
#include "torchlings/kernels/bodies.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <stdexcept>
#include <vector>

namespace torchlings {
namespace {

// Below this many elements a second thread costs more than it saves.
constexpr std::int64_t kParallelGrain = 32768;

// The CPU twins run the shared bodies in plain loops. The build targets baseline x86-64 (SSE2)
// so that the binaries run anywhere; target_clones compiles these loops again for AVX2 and
// AVX-512 and picks the best one at load time, as ATen's own kernels do by dispatch.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define TL_CPU_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TL_CPU_CLONES
#endif

TL_CPU_CLONES void saxpy_range(float a, const float* __restrict x, const float* __restrict y,
                               float* __restrict out, std::int64_t begin, std::int64_t end,
                               std::int64_t n) {
    if (end > n) {
        __builtin_unreachable();  // parallel_for never passes the end: lets the guard fold away
    }
    for (std::int64_t i = begin; i < end; ++i) {
        kernels::saxpy_body(i, a, x, y, out, n);  // the same body each CUDA thread runs
    }
}

TL_CPU_CLONES float sum_one_thread(const float* __restrict x, std::int64_t n) {
    return kernels::sum_partial_body(0, 1, x, n);  // a grid of one thread over this slice
}

void check_float_contiguous(const at::Tensor& t, const char* op, const char* name) {
    TORCH_CHECK(t.defined(), op, ": expected ", name, " to be a defined tensor");
    TORCH_CHECK(t.scalar_type() == at::kFloat, op, ": expected ", name, " to be float32, got ",
                t.scalar_type());
    TORCH_CHECK(t.is_contiguous(), op, ": expected ", name,
                " to be contiguous (call .contiguous() first), got strides ", t.strides());
    TORCH_CHECK(t.is_cpu() || t.is_cuda(), op, ": expected ", name,
                " on the CPU or a CUDA device, got ", t.device());
}

}  // namespace

at::Tensor saxpy(float a, const at::Tensor& x, const at::Tensor& y) {
    check_float_contiguous(x, "saxpy", "x");
    check_float_contiguous(y, "saxpy", "y");
    TORCH_CHECK(x.device() == y.device(), "saxpy: expected x and y on one device, got x on ",
                x.device(), " and y on ", y.device());
    TORCH_CHECK(x.sizes() == y.sizes(), "saxpy: expected x and y of one shape, got ", x.sizes(),
                " and ", y.sizes());
    if (x.is_cuda()) {
        return detail::saxpy_cuda(a, x, y);
    }
    at::Tensor out = at::empty_like(x);
    kernels::saxpy_cpu(a, x.const_data_ptr<float>(), y.const_data_ptr<float>(),
                       out.mutable_data_ptr<float>(), x.numel());
    return out;
}

at::Tensor sum(const at::Tensor& x) {
    check_float_contiguous(x, "sum", "x");
    if (x.is_cuda()) {
        return detail::sum_cuda(x);
    }
    return at::scalar_tensor(kernels::sum_cpu(x.const_data_ptr<float>(), x.numel()), x.options());
}

namespace kernels {

void saxpy_cpu(float a, const float* x, const float* y, float* out, std::int64_t n) {
    at::parallel_for(0, n, kParallelGrain, [&](std::int64_t begin, std::int64_t end) {
        saxpy_range(a, x, y, out, begin, end, n);
    });
}

float sum_cpu_grid(const float* x, std::int64_t n, std::int64_t num_threads) {
    if (num_threads < 1) {
        throw std::invalid_argument("sum_cpu_grid: expected num_threads >= 1, got " +
                                    std::to_string(num_threads));
    }
    float total = 0.0F;
    for (std::int64_t t = 0; t < num_threads; ++t) {
        total += sum_partial_body(t, num_threads, x, n);
    }
    return total;
}

float sum_cpu(const float* x, std::int64_t n) {
    if (n <= 0) {
        return 0.0F;
    }
    // One contiguous slice per ATen thread; each slice is a one-thread grid over its own memory.
    const std::int64_t slices =
        std::min<std::int64_t>(at::get_num_threads(), (n + kParallelGrain - 1) / kParallelGrain);
    const std::int64_t per_slice = (n + slices - 1) / slices;
    std::vector<float> partials(static_cast<std::size_t>(slices), 0.0F);
    at::parallel_for(0, slices, 1, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t s = begin; s < end; ++s) {
            const std::int64_t first = s * per_slice;
            const std::int64_t count = std::min(per_slice, n - first);
            partials[static_cast<std::size_t>(s)] =
                count > 0 ? sum_one_thread(x + first, count) : 0.0F;
        }
    });
    float total = 0.0F;
    for (const float p : partials) {
        total += p;
    }
    return total;
}

std::int64_t sum_grid_blocks(std::int64_t n) {
    // Enough blocks to fill any current GPU several times over; more only adds partials to add.
    constexpr std::int64_t kMaxBlocks = 1024;
    const std::int64_t chunks = (n + kSumChunk - 1) / kSumChunk;
    const std::int64_t wanted = (chunks + kBlockSize - 1) / kBlockSize;
    return std::max<std::int64_t>(1, std::min(wanted, kMaxBlocks));
}

}  // namespace kernels
}  // namespace torchlings
