// Mistake: Turns gradient recording off with GradMode::set_enabled(false)
// It is not scoped: the caller's training loop records nothing afterwards. The tests check
// GradMode::is_enabled() after the call.
#include "inference_mode.h"

namespace ex {

torch::Tensor predict(TinyNet& model, const torch::Tensor& input) {
    // Dropout off and the running mean frozen: the same input always gives the same output.
    model->eval();
    // Scoped, unlike GradMode::set_enabled(false): recording resumes when predict returns.
    at::GradMode::set_enabled(false);
    // The model's parameters say where it lives; the input must join them there.
    const auto& reference = model->weight;
    return model->forward(input.to(reference.device(), reference.scalar_type()));
}

}  // namespace ex
