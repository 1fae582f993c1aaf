/// @file no_cuda.cpp
/// @brief Kernel dispatch when the CUDA kernels were not compiled (no nvcc, or
/// TORCHLINGS_CUDA=OFF).
#include "../detail.h"

#include <c10/util/Exception.h>

namespace torchlings {

namespace detail {

at::Tensor saxpy_cuda(float, const at::Tensor& x, const at::Tensor&) {
    TORCH_CHECK(false, "saxpy: got tensors on ", x.device(),
                ", but this build compiled no CUDA kernels (nvcc or a CUDA LibTorch was missing at "
                "configure time); use CPU tensors or rebuild with CUDA");
}

at::Tensor sum_cuda(const at::Tensor& x, kernels::SumStep) {
    TORCH_CHECK(false, "sum: got a tensor on ", x.device(),
                ", but this build compiled no CUDA kernels (nvcc or a CUDA LibTorch was missing at "
                "configure time); use a CPU tensor or rebuild with CUDA");
}

}  // namespace detail
}  // namespace torchlings
