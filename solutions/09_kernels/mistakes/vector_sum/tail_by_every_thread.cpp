// Mistake: Every thread adds the tail
// The body runs on every thread of the grid, so the tail is counted num_threads times: wrong
// as soon as the grid has two threads and n % 4 != 0.
/// @file vector_sum.cpp
/// @brief Solution of vector_sum (lesson 09).
#include "vector_sum.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ex {

TL_HOST_DEVICE Float4 load4(const float* x) {
#if defined(__CUDA_ARCH__)
    return *reinterpret_cast<const Float4*>(x);  // one 16-byte load
#else
    return Float4{{x[0], x[1], x[2], x[3]}};
#endif
}

TL_HOST_DEVICE float sum4_body(std::int64_t thread, std::int64_t num_threads, const float* x,
                               std::int64_t n) {
    // Four accumulators, one per lane of the Float4: independent adds the hardware can overlap.
    Float4 acc = {{0.0F, 0.0F, 0.0F, 0.0F}};
    const std::int64_t groups = n / 4;
    // Grid-stride over GROUPS, not floats: group g starts at float 4 * g, so neighbouring threads
    // still read neighbouring 16 bytes and a warp's loads stay contiguous.
    for (std::int64_t g = thread; g < groups; g += num_threads) {
        const Float4 v = load4(x + 4 * g);
        for (int k = 0; k < 4; ++k) {
            acc.v[k] += v.v[k];
        }
    }
    // The n % 4 floats after the last whole group: one thread only, or they count many times.
    {
        for (std::int64_t i = 4 * groups; i < n; ++i) {
            acc.v[0] += x[i];
        }
    }
    return (acc.v[0] + acc.v[1]) + (acc.v[2] + acc.v[3]);
}

#if defined(__CUDACC__)
namespace {

__global__ void sum4_kernel(const float* x, std::int64_t n, float* out) {
    const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t num_threads = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    atomicAdd(out, sum4_body(thread, num_threads, x, n));
}

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
    }
}

}  // namespace

void launch_sum4(const float* x, std::int64_t n, float* out, std::int64_t blocks,
                 cudaStream_t stream) {
    if (reinterpret_cast<std::uintptr_t>(x) % alignof(Float4) != 0) {
        throw std::invalid_argument("launch_sum4: expected x aligned to 16 bytes for Float4 loads");
    }
    check(cudaMemsetAsync(out, 0, sizeof(float), stream), "cudaMemsetAsync");
    sum4_kernel<<<static_cast<unsigned>(blocks), 256, 0, stream>>>(x, n, out);
    check(cudaGetLastError(), "launch_sum4");
}
#endif

}  // namespace ex
