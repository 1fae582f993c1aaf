/// @file parameter_devices.h
/// @brief Exercise parameter_devices: the API the learner's file implements and the tests call.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <torch/nn/module.h>

#include <string>
#include <vector>

namespace ex {

/// Where one registered tensor of a module lives.
struct TensorPlace {
    std::string name;                                    ///< Dotted name, e.g. "fc1.weight".
    bool is_buffer = false;                              ///< False: a parameter; true: a buffer.
    c10::Device device{c10::DeviceType::CPU};            ///< The tensor's device.
    c10::ScalarType dtype = c10::ScalarType::Undefined;  ///< The tensor's dtype.
};

/// Every parameter of `module` and of all its submodules, in named_parameters() order, then every
/// buffer, in named_buffers() order.
std::vector<TensorPlace> tensor_places(const torch::nn::Module& module);

/// The names (in tensor_places() order) of the registered tensors that are not where they should
/// be: on a device other than `device`, or, for a floating-point tensor, of a dtype other than
/// `dtype`. Integer tensors (step counters) are checked for their device only. Empty when all is
/// well.
/// @throws std::invalid_argument if `dtype` is not a floating-point type.
std::vector<std::string> misplaced(const torch::nn::Module& module, c10::Device device,
                                   c10::ScalarType dtype);

}  // namespace ex
