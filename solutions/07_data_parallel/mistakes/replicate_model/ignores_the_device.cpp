// Mistake: Clones every replica onto the original's device
// On a CPU-only machine every device in the list is the CPU; a GPU machine gets no replica on
// its GPUs. LibTorch cannot clone a module onto the meta device, so only a GPU shows it.
// Caught with a GPU only.
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
    for (std::size_t i = 0; i < devices.size(); ++i) {
        // clone(device) deep-copies every parameter onto `device` (a new storage even on the
        // original's own device); it returns shared_ptr<Module>, so cast back to the concrete type.
        replicas.emplace_back(std::dynamic_pointer_cast<MlpImpl>(model->clone()));
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
        destination->copy_(item.value());
    }
}

}  // namespace ex
