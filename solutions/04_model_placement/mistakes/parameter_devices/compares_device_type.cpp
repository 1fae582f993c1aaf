// Mistake: Compares only the device type, not the index
// cuda:0 and cuda:1 are both CUDA: a model on cuda:0 checked against cuda:1 reports nothing.
// The device case of the GPU tests asks for cuda:1 next to a model on cuda:0.
// Caught with a GPU only.
#include "parameter_devices.h"

#include <stdexcept>

namespace ex {

std::vector<TensorPlace> tensor_places(const torch::nn::Module& module) {
    std::vector<TensorPlace> places;
    // Both calls recurse into submodules by default, which is what gives the dotted names.
    for (const auto& item : module.named_parameters()) {
        places.push_back({item.key(), false, item.value().device(), item.value().scalar_type()});
    }
    for (const auto& item : module.named_buffers()) {
        places.push_back({item.key(), true, item.value().device(), item.value().scalar_type()});
    }
    return places;
}

std::vector<std::string> misplaced(const torch::nn::Module& module, c10::Device device,
                                   c10::ScalarType dtype) {
    // An integer target makes no sense for weights: it is a caller's mix-up, say it loudly.
    if (!c10::isFloatingType(dtype)) {
        throw std::invalid_argument(
            std::string("misplaced: expected a floating-point dtype, got ") + c10::toString(dtype));
    }
    std::vector<std::string> names;
    for (const auto& place : tensor_places(module)) {
        // Counters such as BatchNorm's num_batches_tracked are integers by design.
        const bool wrong_dtype = c10::isFloatingType(place.dtype) && place.dtype != dtype;
        if (place.device.type() != device.type() || wrong_dtype) {
            names.push_back(place.name);
        }
    }
    return names;
}

}  // namespace ex
