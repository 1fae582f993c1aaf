// Mistake: Adds the headroom to the tensor instead of taking it from the free memory
// bytes * (1 + headroom) <= free is a gentler rule than bytes <= free * (1 - headroom): the two
// agree near the usual cases but not for 4000 bytes, 7000 free and a headroom of 0.5.
#include "fits_in_memory.h"

#include <stdexcept>
#include <string>

namespace ex {

std::uint64_t tensor_bytes(c10::IntArrayRef shape, c10::ScalarType dtype) {
    std::uint64_t bytes = c10::elementSize(dtype);  // a 0-dim tensor still holds one element
    for (const int64_t size : shape) {
        if (size < 0) {
            throw std::invalid_argument("tensor_bytes: expected sizes >= 0, got " +
                                        std::to_string(size));
        }
        // A huge shape must not wrap around to a small number that "fits".
        if (__builtin_mul_overflow(bytes, static_cast<std::uint64_t>(size), &bytes)) {
            throw std::overflow_error("tensor_bytes: the size does not fit in 64 bits");
        }
    }
    return bytes;
}

bool fits_in_memory(c10::IntArrayRef shape, c10::ScalarType dtype, std::uint64_t free_bytes,
                    double headroom) {
    if (!(headroom >= 0.0 && headroom < 1.0)) {  // also rejects NaN
        throw std::invalid_argument("fits_in_memory: expected 0 <= headroom < 1, got " +
                                    std::to_string(headroom));
    }
    // Leave headroom: the tensor and a margin on top of it must fit.
    const auto needed = static_cast<long double>(tensor_bytes(shape, dtype)) * (1.0L + headroom);
    return needed <= static_cast<long double>(free_bytes);
}

}  // namespace ex
