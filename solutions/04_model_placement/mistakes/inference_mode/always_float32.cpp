// Mistake: Converts every input to float32
// A float64 model then gets float32 input and linear() throws a dtype mismatch: the input must
// follow the model's own dtype.
#include "inference_mode.h"

namespace ex {

torch::Tensor predict(TinyNet& model, const torch::Tensor& input) {
    // Dropout off and the running mean frozen: the same input always gives the same output.
    model->eval();
    // Scoped, unlike GradMode::set_enabled(false): recording resumes when predict returns.
    const at::NoGradGuard no_grad;
    // The model's parameters say where it lives; the input must join them there.
    const auto& reference = model->weight;
    return model->forward(input.to(reference.device(), at::kFloat));
}

}  // namespace ex
