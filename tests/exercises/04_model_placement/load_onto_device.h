/// @file load_onto_device.h
/// @brief Exercise load_onto_device: the API the learner's file implements and the tests call.
#pragma once

#include "tiny_net.h"

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

#include <cstdint>
#include <string>

namespace ex {

/// Writes every parameter and buffer of `model` to the file `path` (LibTorch's format).
void save_model(const TinyNet& model, const std::string& path);

/// A fresh TinyNet(in_features, out_features) holding the values saved in `path`, with every
/// tensor on `device`. `dtype` is the dtype the file was saved in: torch::load does not convert
/// dtypes, so the fresh model must have that dtype before it loads.
/// @throws std::invalid_argument if there is no file at `path` (the message names the path).
TinyNet load_onto(const std::string& path, std::int64_t in_features, std::int64_t out_features,
                  c10::Device device, c10::ScalarType dtype);

}  // namespace ex
