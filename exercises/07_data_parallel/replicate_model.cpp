/// @file replicate_model.cpp
/// @brief Exercise replicate_model (lesson 07): one independent copy of the model per device.
///
/// Each device needs the whole model, in its own memory: a replica that shared storage with the
/// original (or with another replica) would see every other replica's updates. Clone the model
/// once per device; then write the cheaper refresh that copies new weights into existing replicas.
/// Check it with: ./torchlings check replicate_model      Stuck? ./torchlings hint replicate_model
#include "replicate_model.h"

#include <torchlings/exercise.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace ex {

std::vector<Mlp> replicate_model(const Mlp& model, const std::vector<c10::Device>& devices) {
    // TODO: throw std::invalid_argument when `devices` is empty.
    // TODO: for every device, deep-copy the model onto it with clone(device) (Cloneable gives
    //       MlpImpl that method); clone() returns std::shared_ptr<torch::nn::Module>, so cast it
    //       back to MlpImpl before wrapping it in an Mlp.
    (void)model;
    (void)devices;
    TL_TODO("replicate_model: one clone(device) per device");
}

void copy_parameters(const Mlp& from, const Mlp& to) {
    // TODO: check that `to` has a parameter of the same name and shape for each of `from`'s
    //       (named_parameters() on both); throw std::invalid_argument if not.
    // TODO: with autograd off for this scope, copy each value into the existing parameter in place.
    (void)from;
    (void)to;
    TL_TODO("copy_parameters: copy_ every parameter under a NoGradGuard");
}

}  // namespace ex
