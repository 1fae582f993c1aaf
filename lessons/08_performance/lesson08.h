/// @file lesson08.h
/// @brief Lesson 08's shared pieces: the demo's millisecond format, and section 7 (profiling,
/// profiling.cpp), which 08_performance.cpp runs between sections 6 and the GPU's.
#pragma once

#include <c10/core/Device.h>

#include <string>

// The lesson's own pieces, not an API: kept out of the generated documentation.
/** @cond */
namespace lesson08 {

/// Milliseconds with three significant figures or more: "0.0123", "1.23", "123".
std::string ms(double value);

/// Section 7: profiles three training steps of section 4's MLP with LibTorch's profiler; with a
/// non-empty `trace_path`, writes the Chrome trace there.
void show_profile(const c10::Device& device, const std::string& trace_path);

}  // namespace lesson08
/** @endcond */
