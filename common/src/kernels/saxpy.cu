/// @file saxpy.cu
/// @brief SAXPY on the GPU: the kernel and its launcher. No LibTorch header here: pointers,
/// sizes and a stream come in; errors go out as exceptions (TL_CUDA_CHECK). The per-thread body
/// is in include/torchlings/kernels/saxpy.h, the CPU twin in saxpy.cpp.
#include "torchlings/cuda_check.h"
#include "torchlings/kernels/launch.h"
#include "torchlings/kernels/saxpy.h"

namespace torchlings::kernels {

/// One thread per element; the body carries the bounds guard. The index is computed in 64 bits:
/// blockIdx.x * blockDim.x in 32-bit unsigned arithmetic wraps past 2^32 elements.
__global__ void saxpy_kernel(float a, const float* __restrict__ x, const float* __restrict__ y,
                             float* __restrict__ out, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    saxpy_body(i, a, x, y, out, n);
}

void launch_saxpy(float a, const float* x, const float* y, float* out, std::int64_t n,
                  cudaStream_t stream) {
    if (n == 0) {
        return;  // a zero-block grid is a launch error
    }
    const auto blocks = static_cast<unsigned>(blocks_for(n, kBlockSize));
    saxpy_kernel<<<blocks, kBlockSize, 0, stream>>>(a, x, y, out, n);
    TL_CUDA_CHECK_LAUNCH();
}

}  // namespace torchlings::kernels
