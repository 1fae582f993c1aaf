/// @file saxpy.cpp
/// @brief SAXPY on the CPU: its CPU twin (saxpy_body in a loop) and the tensor-level entry point.
/// The GPU side is saxpy.cu (kernel and launch) and on_cuda.cpp (guard and stream).
#include "../detail.h"
#include "tensor_checks.h"
#include "torchlings/kernels.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

namespace torchlings {
namespace {

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

}  // namespace

at::Tensor saxpy(float a, const at::Tensor& x, const at::Tensor& y) {
    using kernels::detail::check_float_contiguous;
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

namespace kernels {

void saxpy_cpu(float a, const float* x, const float* y, float* out, std::int64_t n) {
    at::parallel_for(0, n, detail::kParallelGrain, [&](std::int64_t begin, std::int64_t end) {
        saxpy_range(a, x, y, out, begin, end, n);
    });
}

}  // namespace kernels
}  // namespace torchlings
