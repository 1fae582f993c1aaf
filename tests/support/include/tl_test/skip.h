/// @file
/// @brief TL_SKIP(reason): skip the rest of a Catch2 test case and report it as skipped.
///
/// Catch2 v2 has no SKIP() (v3 has it from 3.3, and the course runs on both). TL_SKIP emits the
/// warning `TL_SKIP: <reason>` and returns from the test case. The `torchlings` reporter
/// (tests/support/catch_main.cpp) turns a case with that warning and no failure into
/// `"status":"skipped"`; CTest marks it skipped through the test property
/// `SKIP_REGULAR_EXPRESSION "TL_SKIP: "`, because Catch2's console reporter (v2's and v3's)
/// prints warnings. No LibTorch here.
///
/// @code
/// TEST_CASE("matmul on the GPU", "[gpu]") {
///     if (!torch::cuda::is_available()) TL_SKIP("needs a CUDA GPU");
///     ...
/// }
/// @endcode
#pragma once

#include "tl_test/catch.h"

/// The prefix of the warning that marks a skipped case; the reporter and CTest match it.
#define TL_SKIP_PREFIX "TL_SKIP: "

/// Skips the current test case. `reason` may be a stream expression: `"needs " << n << " GPUs"`.
/// It returns from the enclosing function, so use it in the test case's own body (or in a
/// SECTION directly inside it), not in a helper function.
/// (`reason` is deliberately not parenthesised, so that it can continue the stream.)
#define TL_SKIP(reason)                                                          \
    do {                                                                         \
        WARN(TL_SKIP_PREFIX << reason); /* NOLINT(bugprone-macro-parentheses) */ \
        return;                                                                  \
    } while (false)
