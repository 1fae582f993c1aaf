/// @file on_cuda.cpp
/// @brief The CUDA side of the tensor-level kernels: device guard, current stream, scratch memory,
/// launch. The .cu files see raw pointers only; everything LibTorch stays here.
#include "../detail.h"
#include "torchlings/kernels.h"
#include "torchlings/kernels/launch.h"

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

namespace torchlings {

namespace detail {

at::Tensor saxpy_cuda(float a, const at::Tensor& x, const at::Tensor& y) {
    // Launch on the tensors' GPU, not whichever is current: a kernel launched on another device
    // than its pointers' fails with "an illegal memory access" (or worse, works by peer access).
    const c10::cuda::CUDAGuard guard(x.device());
    at::Tensor out = at::empty_like(x);
    // The current stream, not stream 0: otherwise the kernel races LibTorch's own work.
    kernels::launch_saxpy(a, x.const_data_ptr<float>(), y.const_data_ptr<float>(),
                          out.mutable_data_ptr<float>(), x.numel(),
                          at::cuda::getCurrentCUDAStream(x.device().index()).stream());
    return out;
}

at::Tensor sum_cuda(const at::Tensor& x, kernels::SumStep step) {
    const c10::cuda::CUDAGuard guard(x.device());
    const int device = x.device().index();
    const std::int64_t scratch_floats = kernels::sum_scratch_floats(x.numel(), step, device);
    // Scratch from the caching allocator: no cudaMalloc (and its synchronisation) per call.
    at::Tensor scratch = at::empty({std::max<std::int64_t>(scratch_floats, 1)}, x.options());
    at::Tensor out = at::empty({}, x.options());
    kernels::launch_sum(x.const_data_ptr<float>(), x.numel(), scratch.mutable_data_ptr<float>(),
                        out.mutable_data_ptr<float>(), step, device,
                        at::cuda::getCurrentCUDAStream(x.device().index()).stream());
    return out;
}

}  // namespace detail
}  // namespace torchlings
