/// @file parameter_devices.cpp
/// @brief Exercise parameter_devices (lesson 04): where does every parameter and buffer live?
///
/// A model on the "right" device with one tensor left behind fails at its first forward, far from
/// the cause. List every registered tensor of a module with its device and dtype, then find the
/// ones that are not where they should be.
/// Check it with: ./torchlings check parameter_devices
/// Stuck? ./torchlings hint parameter_devices
#include "parameter_devices.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

std::vector<TensorPlace> tensor_places(const torch::nn::Module& module) {
    // TODO: one TensorPlace per parameter (module.named_parameters(): each item has key() and
    //       value()), then one per buffer (module.named_buffers()), with is_buffer set for those.
    (void)module;
    TL_TODO("tensor_places: list named_parameters() then named_buffers()");
}

std::vector<std::string> misplaced(const torch::nn::Module& module, c10::Device device,
                                   c10::ScalarType dtype) {
    // TODO: reject a dtype that is not floating-point with std::invalid_argument.
    // TODO: return the names of the tensors on another device, or floating-point tensors of
    //       another dtype (integer tensors are judged by their device only).
    (void)module;
    (void)device;
    (void)dtype;
    TL_TODO("misplaced: compare each tensor's device and dtype with the target");
}

}  // namespace ex
