/// @file same_device_add.cpp
/// @brief Exercise same_device_add (lesson 03): add tensors that live on different devices.
///
/// Every operation needs its tensors on one device; LibTorch never moves them for you and
/// throws "Expected all tensors to be on the same device" instead. Move one operand yourself.
/// The tests use the "meta" device (shapes, no data) as the second device, so they run on any
/// machine; a meta tensor cannot be copied to the CPU, so moving the wrong one throws.
/// Check it with: ./torchlings check same_device_add      Stuck? ./torchlings hint same_device_add
#include "same_device_add.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

at::Tensor add_on_device_of_first(const at::Tensor& a, const at::Tensor& b) {
    // TODO: reject undefined tensors with std::invalid_argument.
    // TODO: move b to a's device, then add (a.add(...)): the result is on a.device().
    (void)a;
    (void)b;
    TL_TODO("add_on_device_of_first: move b to a.device(), then add");
}

c10::Device compute_device(c10::Device a, c10::Device b) {
    // TODO: if a is the CPU and b is not, return b; otherwise return a.
    (void)a;
    (void)b;
    TL_TODO("compute_device: prefer the device that is not the CPU");
}

at::Tensor add_on_compute_device(const at::Tensor& a, const at::Tensor& b) {
    // TODO: reject undefined tensors with std::invalid_argument.
    // TODO: move both tensors to compute_device(a.device(), b.device()) and add them.
    (void)a;
    (void)b;
    TL_TODO("add_on_compute_device: move both to compute_device(...), then add");
}

}  // namespace ex
