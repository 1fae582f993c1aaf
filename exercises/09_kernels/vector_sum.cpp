/// @file vector_sum.cpp
/// @brief Exercise vector_sum (lesson 09): several elements per thread, four floats per load.
///
/// One float per load leaves most of a memory transaction's width unused per instruction. Here
/// each thread reads four floats at once (a 16-byte load on the GPU) and keeps four running sums;
/// the n % 4 floats that do not fill a group still have to be added, by one thread only.
/// Check it with: ./torchlings check vector_sum      Stuck? ./torchlings hint vector_sum
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
    // TODO: loop over this thread's groups of four (g = thread, thread + num_threads, ... below
    // n / 4), load each with load4(x + 4 * g) and add its four floats to four accumulators.
    // TODO: if this is thread 0, add the n % 4 floats after the last whole group.
    // TODO: return the sum of the accumulators.
    (void)thread;
    (void)num_threads;
    (void)x;
    (void)n;
    return 0.0F;
}

// Given: the kernel and its launch. Compiled only by nvcc (this file is CUDA when nvcc exists).
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
