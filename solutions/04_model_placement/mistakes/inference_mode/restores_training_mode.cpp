// Mistake: Puts the model back in training mode before returning
// The contract leaves the model in evaluation mode; restoring the old mode looks tidy but the
// tests check is_training() after the call.
#include "inference_mode.h"

namespace ex {

torch::Tensor predict(TinyNet& model, const torch::Tensor& input) {
    // Dropout off and the running mean frozen: the same input always gives the same output.
    model->eval();
    // Scoped, unlike GradMode::set_enabled(false): recording resumes when predict returns.
    const at::NoGradGuard no_grad;
    // The model's parameters say where it lives; the input must join them there.
    const auto& reference = model->weight;
    auto output = model->forward(input.to(reference.device(), reference.scalar_type()));
    model->train();
    return output;
}

}  // namespace ex
