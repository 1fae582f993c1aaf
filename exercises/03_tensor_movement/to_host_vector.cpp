/// @file to_host_vector.cpp
/// @brief Exercise to_host_vector (lesson 03): read any tensor's values into a std::vector.
///
/// Python has `t.detach().cpu().numpy()`. In C++ you build the same chain yourself: the values
/// may be on a GPU, in another dtype, or in a view whose memory is not in the order it prints.
/// Copy them into a std::vector<float> in logical (row-major) order.
/// Check it with: ./torchlings check to_host_vector      Stuck? ./torchlings hint to_host_vector
#include "to_host_vector.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

std::vector<float> to_host_vector(const at::Tensor& t) {
    // TODO: reject an undefined tensor (t.defined() is false) with std::invalid_argument.
    // TODO: get a host tensor you can read front to back: no autograd history, on the CPU,
    //       float32, and contiguous (each of these steps is free when it is already true).
    // TODO: copy its numel() floats, starting at const_data_ptr<float>(), into the vector.
    (void)t;
    TL_TODO("to_host_vector: detach, move to the CPU as float, make contiguous, copy out");
}

}  // namespace ex
