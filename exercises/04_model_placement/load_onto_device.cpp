/// @file load_onto_device.cpp
/// @brief Exercise load_onto_device (lesson 04): save a model, load it onto any device.
///
/// A checkpoint saved on a GPU machine must load on a laptop, and the other way round.
/// torch::load(model, path, device) is Python's map_location. It loads *into* an existing model,
/// and it neither converts dtypes nor checks them: the fresh model must already have the file's
/// dtype.
/// Check it with: ./torchlings check load_onto_device
/// Stuck? ./torchlings hint load_onto_device
#include "load_onto_device.h"

#include <torchlings/exercise.h>

#include <torch/serialize.h>

#include <filesystem>
#include <stdexcept>

namespace ex {

void save_model(const TinyNet& model, const std::string& path) {
    // TODO: write the model to `path` with torch::save.
    (void)model;
    (void)path;
    TL_TODO("save_model: torch::save the model to the path");
}

TinyNet load_onto(const std::string& path, std::int64_t in_features, std::int64_t out_features,
                  c10::Device device, c10::ScalarType dtype) {
    // TODO: if there is no file at `path`, throw std::invalid_argument naming it.
    // TODO: build a fresh TinyNet and give it the file's dtype (and the target device) first.
    // TODO: torch::load into it, passing the device so that the storages land there.
    (void)path;
    (void)in_features;
    (void)out_features;
    (void)device;
    (void)dtype;
    TL_TODO("load_onto: a fresh model, converted, then torch::load with the device");
}

}  // namespace ex
