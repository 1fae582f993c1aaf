// Mistake: Converts the input's dtype and leaves it on its device
// On a CPU-only machine every tensor is on the CPU, so this looks right; a GPU model gets a CPU
// input. Module::to() cannot move a model to the meta device, so only a GPU shows it.
// Caught with a GPU only.
#include "inference_mode.h"

namespace ex {

torch::Tensor predict(TinyNet& model, const torch::Tensor& input) {
    // Dropout off and the running mean frozen: the same input always gives the same output.
    model->eval();
    // Scoped, unlike GradMode::set_enabled(false): recording resumes when predict returns.
    const at::NoGradGuard no_grad;
    // The model's parameters say where it lives; the input must join them there.
    const auto& reference = model->weight;
    return model->forward(input.to(reference.scalar_type()));
}

}  // namespace ex
