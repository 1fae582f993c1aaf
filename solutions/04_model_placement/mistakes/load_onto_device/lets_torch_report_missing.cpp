// Mistake: Lets torch::load report a missing file
// LibTorch's error is a c10::Error about fopen, not the std::invalid_argument naming the path
// that the caller can catch.
#include "load_onto_device.h"

#include <torch/serialize.h>

#include <filesystem>
#include <stdexcept>

namespace ex {

void save_model(const TinyNet& model, const std::string& path) {
    // Saves the registered parameters and buffers, by name, with the device they are on.
    torch::save(model, path);
}

TinyNet load_onto(const std::string& path, std::int64_t in_features, std::int64_t out_features,
                  c10::Device device, c10::ScalarType dtype) {
    // LibTorch's own message for a missing file speaks of fopen and errno, not of checkpoints.
    TinyNet model(in_features, out_features);
    // load() copies the file's bytes into same-device tensors without converting their dtype.
    model->to(device, dtype);
    // The device remaps storages as they are read: Python's map_location.
    torch::load(model, path, device);
    return model;
}

}  // namespace ex
