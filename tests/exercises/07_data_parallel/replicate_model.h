/// @file replicate_model.h
/// @brief Exercise replicate_model: the API the learner's file implements and the tests call.
#pragma once

#include "mlp.h"

#include <c10/core/Device.h>

#include <vector>

namespace ex {

/// One replica of `model` per entry of `devices`, in order (a device may appear several times:
/// every entry gets its own copy). Each replica holds the model's parameter values on its device,
/// in storage of its own, with no gradient and no autograd link to the original, and the
/// original's training or evaluation mode. The original is left untouched.
/// @throws std::invalid_argument if `devices` is empty.
std::vector<Mlp> replicate_model(const Mlp& model, const std::vector<c10::Device>& devices);

/// Copies `from`'s parameter values into `to`'s existing parameters (which keep their own device
/// and storage), without recording autograd history: how replicas kept from one step to the next
/// receive the new weights instead of being cloned again.
/// @throws std::invalid_argument if the two models' parameters differ in names or shapes.
void copy_parameters(const Mlp& from, const Mlp& to);

}  // namespace ex
