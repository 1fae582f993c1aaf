// Mistake: Turns autograd off but forgets eval()
// Dropout stays on and the running mean keeps moving: two calls on the same input differ.
// The tests check the mode, the formula and the running mean.
#include "inference_mode.h"

namespace ex {

torch::Tensor predict(TinyNet& model, const torch::Tensor& input) {
    // Dropout off and the running mean frozen: the same input always gives the same output.
    // Scoped, unlike GradMode::set_enabled(false): recording resumes when predict returns.
    const at::NoGradGuard no_grad;
    // The model's parameters say where it lives; the input must join them there.
    const auto& reference = model->weight;
    return model->forward(input.to(reference.device(), reference.scalar_type()));
}

}  // namespace ex
