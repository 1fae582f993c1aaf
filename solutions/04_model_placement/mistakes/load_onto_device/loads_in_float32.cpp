// Mistake: Loads into a fresh float32 model whatever the file's dtype
// torch::load neither converts nor checks dtypes: float64 bytes read into float32 tensors are
// garbage. The float64 checkpoint case compares the values.
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
    if (!std::filesystem::is_regular_file(path)) {
        throw std::invalid_argument("load_onto: expected a saved model at '" + path +
                                    "', found no such file");
    }
    TinyNet model(in_features, out_features);
    // load() copies the file's bytes into same-device tensors without converting their dtype.
    model->to(device);
    // The device remaps storages as they are read: Python's map_location.
    torch::load(model, path, device);
    return model;
}

}  // namespace ex
