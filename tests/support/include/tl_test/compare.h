/// @file compare.h
/// @brief Tensor assertions for Catch2 that say what differs, not just "FAILED", on the tensor
/// core of LibTorch alone.
///
/// A failed comparison reports both tensors' shape, dtype and device, the first mismatching
/// index with both values, the largest absolute difference and the tolerances used.
/// TL_REQUIRE_CUDA() skips a case where no GPU is visible.
///
/// It includes the few LibTorch headers it uses (the tensor and its methods, the CUDA query),
/// which compile in seconds, so that tests which need no more (lesson 01's) stay quick to build
/// on a fresh machine. Tests that use the rest of LibTorch include tl_test/tensors.h.
#pragma once

// c10's logging header defines its own fatal CHECK(condition), which must not replace Catch's
// CHECK. Include it first and undefine that CHECK: any later LibTorch header that includes it
// again (<torch/torch.h>, say) finds it already included and leaves Catch's CHECK alone.
#include <c10/util/Logging.h>
#ifdef CHECK
#undef CHECK
#endif

#include <ATen/core/Tensor.h>
#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>
#include <torch/cuda.h>

#include "tl_test/skip.h"

#include "tl_test/catch.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace tl_test {

/// Tolerances of a close comparison: |actual - expected| <= atol + rtol * |expected|.
struct Tolerance {
    double rtol = 1e-5;  ///< Relative part.
    double atol = 1e-6;  ///< Absolute part.
};

/// "float32[2, 3] on cpu".
inline std::string describe(const at::Tensor& t) {
    if (!t.defined()) {
        return "an undefined tensor";
    }
    std::ostringstream out;
    out << c10::toString(t.scalar_type()) << t.sizes() << " on " << t.device();
    return out.str();
}

/// Compares `actual` with `expected`; returns an empty string when they agree, else a report.
/// Shapes, dtypes and devices must match exactly; values within `tol` (exact for integers).
inline std::string compare(const at::Tensor& actual, const at::Tensor& expected,
                           Tolerance tol = {}) {
    std::ostringstream out;
    if (!actual.defined() || !expected.defined()) {
        out << "expected " << describe(expected) << ", got " << describe(actual);
        return out.str();
    }
    if (actual.sizes() != expected.sizes() || actual.scalar_type() != expected.scalar_type() ||
        actual.device() != expected.device()) {
        out << "expected " << describe(expected) << ", got " << describe(actual);
        return out.str();
    }
    const auto a = actual.detach().to(at::kCPU).to(at::kDouble).contiguous().reshape({-1});
    const auto e = expected.detach().to(at::kCPU).to(at::kDouble).contiguous().reshape({-1});
    const bool exact = !c10::isFloatingType(expected.scalar_type());
    const double rtol = exact ? 0.0 : tol.rtol;
    const double atol = exact ? 0.0 : tol.atol;
    // Tensor methods rather than operators: ATen's operators (+, -, *) come with every ATen
    // function's declaration, the heaviest part of a LibTorch build.
    const auto diff = a.sub(e).abs();
    const auto bad =
        diff.gt(e.abs().mul(rtol).add(atol)).logical_or(a.isnan().logical_xor(e.isnan()));
    if (!bad.any().item<bool>()) {
        return {};
    }
    const auto flat = bad.nonzero()[0][0].item<int64_t>();
    // Turn the flat index back into a multi-index, e.g. [1, 2].
    std::vector<int64_t> index(static_cast<std::size_t>(expected.dim()), 0);
    int64_t rest = flat;
    for (int64_t d = expected.dim() - 1; d >= 0; --d) {
        index[static_cast<std::size_t>(d)] = rest % expected.size(d);
        rest /= expected.size(d);
    }
    out << describe(actual) << " differs from the expected values at " << bad.sum().item<int64_t>()
        << " of " << e.numel() << " elements; first at index " << c10::IntArrayRef(index)
        << ": got " << a[flat].item<double>() << ", expected " << e[flat].item<double>()
        << "; max |difference| " << diff.nan_to_num(0.0).max().item<double>();
    if (!exact) {
        out << " (rtol " << rtol << ", atol " << atol << ")";
    }
    return out.str();
}

}  // namespace tl_test

/// The body of both assertions below: `assertion` is Catch's CHECK or REQUIRE.
#define TL_TENSOR_CLOSE_(assertion, actual, expected, ...)                      \
    do {                                                                        \
        const std::string tl_report_ =                                          \
            ::tl_test::compare((actual), (expected)__VA_OPT__(, ) __VA_ARGS__); \
        INFO(tl_report_);                                                       \
        assertion(tl_report_.empty());                                          \
    } while (false)

/// CHECKs that two tensors agree (shape, dtype, device, values within tolerance).
#define TL_CHECK_TENSOR_CLOSE(actual, expected, ...) \
    TL_TENSOR_CLOSE_(CHECK, actual, expected __VA_OPT__(, ) __VA_ARGS__)

/// REQUIRE form of TL_CHECK_TENSOR_CLOSE: stops the test case on mismatch.
#define TL_REQUIRE_TENSOR_CLOSE(actual, expected, ...) \
    TL_TENSOR_CLOSE_(REQUIRE, actual, expected __VA_OPT__(, ) __VA_ARGS__)

/// Skips the rest of a test case (reported as skipped, not passed) when no CUDA GPU is visible.
/// Fails, on every machine, when the stand-in accelerator (tl_test/standin.h) was named earlier in
/// this process: on a GPU LibTorch would then take it for the machine's accelerator, and a
/// backward pass over CUDA tensors would stop inside the autograd engine. A test program declares
/// its [gpu] cases first (tests/support/gpu_cases_first.py checks it).
#define TL_REQUIRE_CUDA()                                                                     \
    do {                                                                                      \
        if (c10::is_privateuse1_backend_registered()) {                                       \
            FAIL(                                                                             \
                "a stand-in case ran before this GPU case in the same process, and LibTorch " \
                "has one accelerator per process: declare the [gpu] cases first");            \
        }                                                                                     \
        if (!torch::cuda::is_available()) {                                                   \
            TL_SKIP("needs a CUDA GPU (none is visible here)");                               \
        }                                                                                     \
    } while (false)
