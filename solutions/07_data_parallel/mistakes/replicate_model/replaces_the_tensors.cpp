// Mistake: Gives the replica new tensors instead of copying into its own
// set_data() swaps in another storage: the replica's parameters no longer sit where they did,
// and they share memory with the source. The tests check the data pointer and aliasing.
#include "replicate_model.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace ex {

std::vector<Mlp> replicate_model(const Mlp& model, const std::vector<c10::Device>& devices) {
    if (devices.empty()) {
        throw std::invalid_argument("replicate_model: expected at least one device, got none");
    }
    std::vector<Mlp> replicas;
    replicas.reserve(devices.size());
    for (const auto& device : devices) {
        // clone(device) deep-copies every parameter onto `device` (a new storage even on the
        // original's own device); it returns shared_ptr<Module>, so cast back to the concrete type.
        replicas.emplace_back(std::dynamic_pointer_cast<MlpImpl>(model->clone(device)));
    }
    return replicas;
}

void copy_parameters(const Mlp& from, const Mlp& to) {
    const auto source = from->named_parameters();
    auto target = to->named_parameters();
    if (source.size() != target.size()) {
        throw std::invalid_argument("copy_parameters: expected " + std::to_string(source.size()) +
                                    " parameters in the target, got " +
                                    std::to_string(target.size()));
    }
    // In-place writes to leaf parameters that require grad are refused while grad mode is on.
    const torch::NoGradGuard no_grad;
    for (const auto& item : source) {
        const auto* destination = target.find(item.key());
        if (destination == nullptr || !destination->sizes().equals(item.value().sizes())) {
            throw std::invalid_argument("copy_parameters: the target has no parameter '" +
                                        item.key() + "' of the source's shape");
        }
        // copy_ crosses devices and keeps the destination's storage, device and identity.
        const_cast<at::Tensor*>(destination)->set_data(item.value());
    }
}

}  // namespace ex
