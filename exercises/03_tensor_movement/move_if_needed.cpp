/// @file move_if_needed.cpp
/// @brief Exercise move_if_needed (lesson 03): move a tensor only if it is elsewhere.
///
/// Tensor::to() returns the very same tensor when the device and dtype already match: no
/// allocation, no copy, and writes through the result reach the original. Write the rule
/// .to() uses (task 1), then a move that reports whether a copy happened (task 2).
/// Check it with: ./torchlings check move_if_needed      Stuck? ./torchlings hint move_if_needed
#include "move_if_needed.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

bool already_on(c10::Device tensor_device, c10::Device target,
                c10::DeviceIndex current_cuda_index) {
    // TODO: reject a CUDA tensor_device without an index with std::invalid_argument.
    // TODO: a CUDA target without an index means CUDA device current_cuda_index.
    // TODO: then the tensor is already there when the two devices are equal.
    (void)tensor_device;
    (void)target;
    (void)current_cuda_index;
    TL_TODO("already_on: resolve an index-less CUDA target, then compare");
}

Moved move_if_needed(const at::Tensor& t, c10::Device target,
                     std::optional<c10::ScalarType> dtype) {
    // TODO: reject an undefined tensor with std::invalid_argument.
    // TODO: move t to target (and dtype, or t's own dtype when none is given).
    // TODO: report copied = whether the result is a different tensor from t.
    (void)t;
    (void)target;
    (void)dtype;
    TL_TODO("move_if_needed: call to(), then compare the result with t");
}

}  // namespace ex
