// Mistake: Decides `copied` from the device alone
// A new dtype on the same device is a copy too; the flag must say whether to() returned
// another tensor, which is_same() tells.
#include "move_if_needed.h"

#include <stdexcept>
#include <utility>

namespace ex {

bool already_on(c10::Device tensor_device, c10::Device target,
                c10::DeviceIndex current_cuda_index) {
    // A CUDA tensor always lives on one numbered GPU; an index-less one is a caller's bug.
    if (tensor_device.is_cuda() && !tensor_device.has_index()) {
        throw std::invalid_argument(
            "already_on: expected a CUDA tensor device with an index, got " + tensor_device.str());
    }
    // "cuda" alone means the current GPU, as Tensor::to() resolves it before comparing.
    if (target.is_cuda() && !target.has_index()) {
        target = c10::Device(c10::DeviceType::CUDA, current_cuda_index);
    }
    return tensor_device == target;
}

Moved move_if_needed(const at::Tensor& t, c10::Device target,
                     std::optional<c10::ScalarType> dtype) {
    if (!t.defined()) {
        throw std::invalid_argument(
            "move_if_needed: expected a defined tensor, got an undefined one");
    }
    // to() already skips the copy when nothing changes; is_same() tells us whether it did.
    at::Tensor moved = t.to(target, dtype.value_or(t.scalar_type()));
    const bool copied = t.device() != target;
    return {std::move(moved), copied};
}

}  // namespace ex
