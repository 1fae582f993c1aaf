/// @file cuda_check.h
/// @brief TL_CUDA_CHECK: check a CUDA runtime call and throw (never exit) on failure.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace torchlings::detail {

/// Throws std::runtime_error("CUDA error: <name> (<text>) in <expr> at <file>:<line>").
[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* expr, const char* file,
                                          int line) {
    throw std::runtime_error(std::string("CUDA error: ") + cudaGetErrorName(status) + " (" +
                             cudaGetErrorString(status) + ") in " + expr + " at " + file + ":" +
                             std::to_string(line));
}

}  // namespace torchlings::detail

/// Evaluates a cudaError_t expression and throws if it is not cudaSuccess.
#define TL_CUDA_CHECK(expr)                                                                \
    do {                                                                                   \
        const cudaError_t tl_status_ = (expr);                                             \
        if (tl_status_ != cudaSuccess) {                                                   \
            ::torchlings::detail::throw_cuda_error(tl_status_, #expr, __FILE__, __LINE__); \
        }                                                                                  \
    } while (false)

/// Checks the last kernel launch (a bad configuration is reported here, synchronously).
#define TL_CUDA_CHECK_LAUNCH() TL_CUDA_CHECK(cudaGetLastError())
