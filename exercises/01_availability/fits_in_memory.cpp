/// @file fits_in_memory.cpp
/// @brief Exercise fits_in_memory (lesson 01): will a tensor fit in free device memory?
///
/// Before allocating a large tensor on a GPU, compare its size with the free memory the lesson's
/// report shows, keeping some headroom for the allocator and for LibTorch's own workspaces.
/// Check it with: ./torchlings check fits_in_memory      Stuck? ./torchlings hint fits_in_memory
#include "fits_in_memory.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

std::uint64_t tensor_bytes(c10::IntArrayRef shape, c10::ScalarType dtype) {
    // TODO: reject negative sizes with std::invalid_argument.
    // TODO: multiply the sizes and the element size (c10::elementSize) without overflowing;
    //       throw std::overflow_error if the product does not fit in 64 bits.
    (void)shape;
    (void)dtype;
    TL_TODO("tensor_bytes: numel times element size");
}

bool fits_in_memory(c10::IntArrayRef shape, c10::ScalarType dtype, std::uint64_t free_bytes,
                    double headroom) {
    // TODO: check that 0 <= headroom < 1, then compare tensor_bytes with the usable free memory.
    (void)shape;
    (void)dtype;
    (void)free_bytes;
    (void)headroom;
    TL_TODO("fits_in_memory: compare with free memory minus headroom");
}

}  // namespace ex
