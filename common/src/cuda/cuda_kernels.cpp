/// @file cuda_kernels.cpp
/// @brief CUDA side of the tensor-level kernels: device guard, current stream, launch.
/// The .cu file sees raw pointers only; everything LibTorch stays here.
#include "../detail.h"

#include "torchlings/kernels.h"
#include "torchlings/kernels/launch.h"

#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

namespace torchlings {

bool cuda_kernels_compiled() { return true; }

namespace detail {

at::Tensor saxpy_cuda(float a, const at::Tensor& x, const at::Tensor& y) {
    const c10::cuda::CUDAGuard guard(
        x.device());  // launch on the tensors' GPU, not the current one
    at::Tensor out = at::empty_like(x);
    // The current stream, not stream 0: otherwise the kernel races LibTorch's own work.
    kernels::launch_saxpy(a, x.const_data_ptr<float>(), y.const_data_ptr<float>(),
                          out.mutable_data_ptr<float>(), x.numel(),
                          at::cuda::getCurrentCUDAStream(x.device().index()).stream());
    return out;
}

at::Tensor sum_cuda(const at::Tensor& x) {
    const c10::cuda::CUDAGuard guard(x.device());
    const std::int64_t blocks = kernels::sum_grid_blocks(x.numel());
    at::Tensor partials = at::empty({blocks}, x.options());  // from the caching allocator
    at::Tensor out = at::empty({}, x.options());
    kernels::launch_sum(x.const_data_ptr<float>(), x.numel(), partials.mutable_data_ptr<float>(),
                        blocks, out.mutable_data_ptr<float>(),
                        at::cuda::getCurrentCUDAStream(x.device().index()).stream());
    return out;
}

}  // namespace detail
}  // namespace torchlings
