/// @file saxpy.h
/// @brief SAXPY's per-thread body, shared by saxpy_kernel (src/kernels/saxpy.cu) and its CPU twin
/// saxpy_cpu (src/kernels/saxpy.cpp).
#pragma once

#include "torchlings/kernels/host_device.h"

namespace torchlings::kernels {

/// SAXPY, out[i] = a * x[i] + y[i], for thread `i` of a grid that may be larger than `n`.
/// Napkin math: reads 2n floats and writes n, 12 bytes per element; at 3 TB/s (H100 HBM3) 16M
/// elements take about 67 us, so SAXPY measures memory bandwidth, not arithmetic.
TL_HOST_DEVICE inline void saxpy_body(std::int64_t i, float a, const float* x, const float* y,
                                      float* out, std::int64_t n) {
    if (i < n) {  // the bounds guard: the last block usually has threads past the end
        out[i] = a * x[i] + y[i];
    }
}

}  // namespace torchlings::kernels
