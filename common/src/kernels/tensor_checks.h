/// @file tensor_checks.h
/// @brief What the tensor-level entry points share: argument checks and the CPU twins' setup.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

#include <cstdint>

namespace torchlings::kernels::detail {

/// Below this many elements a second CPU thread costs more than it saves.
inline constexpr std::int64_t kParallelGrain = 32768;

/// Checks that `t` (argument `name` of `op`) is a defined, contiguous float32 tensor on the CPU
/// or a CUDA device; throws c10::Error saying what was expected and what was got.
inline void check_float_contiguous(const at::Tensor& t, const char* op, const char* name) {
    TORCH_CHECK(t.defined(), op, ": expected ", name, " to be a defined tensor");
    TORCH_CHECK(t.scalar_type() == at::kFloat, op, ": expected ", name, " to be float32, got ",
                t.scalar_type());
    TORCH_CHECK(t.is_contiguous(), op, ": expected ", name,
                " to be contiguous (call .contiguous() first), got strides ", t.strides());
    TORCH_CHECK(t.is_cpu() || t.is_cuda(), op, ": expected ", name,
                " on the CPU or a CUDA device, got ", t.device());
}

}  // namespace torchlings::kernels::detail

// The CPU twins run the shared bodies in plain loops. The build targets baseline x86-64 (SSE2)
// so that the binaries run anywhere; target_clones compiles these loops again for AVX2 and
// AVX-512 and picks the best one at load time, as ATen's own kernels do by dispatch.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define TL_CPU_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TL_CPU_CLONES
#endif
