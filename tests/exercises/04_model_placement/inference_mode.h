/// @file inference_mode.h
/// @brief Exercise inference_mode: the API the learner's file implements and the tests call.
#pragma once

#include "tiny_net.h"

namespace ex {

/// Runs `model` for inference on `input`, which may be on any device and of any floating dtype:
/// the model is put in evaluation mode (and left there), the input is moved to the device and
/// dtype of the model's parameters, and autograd records nothing. Gradient recording is the same
/// after the call as before it. Returns the output, which does not require grad.
torch::Tensor predict(TinyNet& model, const torch::Tensor& input);

}  // namespace ex
