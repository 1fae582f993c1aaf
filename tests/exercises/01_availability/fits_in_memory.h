/// @file fits_in_memory.h
/// @brief Exercise fits_in_memory: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>

#include <cstdint>

namespace ex {

/// Bytes a dense tensor of `shape` and `dtype` occupies (numel * element size; 0-dim = 1 element).
/// @throws std::invalid_argument for a negative size; std::overflow_error if it exceeds 2^64 - 1.
std::uint64_t tensor_bytes(c10::IntArrayRef shape, c10::ScalarType dtype);

/// Whether such a tensor fits in `free_bytes` while keeping a fraction `headroom` of it spare:
/// tensor_bytes <= free_bytes * (1 - headroom).
/// @throws std::invalid_argument if headroom is outside [0, 1), or as tensor_bytes throws.
bool fits_in_memory(c10::IntArrayRef shape, c10::ScalarType dtype, std::uint64_t free_bytes,
                    double headroom = 0.1);

}  // namespace ex
