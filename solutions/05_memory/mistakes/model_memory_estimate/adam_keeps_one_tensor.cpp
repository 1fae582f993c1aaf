// Mistake: Counts one state tensor for Adam
// Adam keeps two moments per parameter, exp_avg and exp_avg_sq: its state is twice the
// parameters' size. The tests compare with a real Adam step.
#include "model_memory_estimate.h"

#include <stdexcept>

namespace ex {

int state_tensors_per_parameter(Optimizer optimizer) {
    switch (optimizer) {
        case Optimizer::kSgd:
            return 0;  // the update uses only the gradient
        case Optimizer::kSgdMomentum:
            return 1;  // momentum_buffer
        case Optimizer::kAdam:
            return 1;  // exp_avg (first moment) and exp_avg_sq (second moment)
    }
    throw std::invalid_argument("state_tensors_per_parameter: unknown optimizer");
}

TrainingMemory estimate_training_memory(const std::vector<at::Tensor>& parameters,
                                        Optimizer optimizer) {
    const auto per_parameter = static_cast<std::uint64_t>(state_tensors_per_parameter(optimizer));
    TrainingMemory memory;
    for (const auto& p : parameters) {
        // numel x element size: what nbytes() reports, and what the tensor's storage must hold.
        const auto bytes = static_cast<std::uint64_t>(p.numel()) * p.element_size();
        memory.parameters += bytes;
        if (p.requires_grad()) {  // a frozen parameter never gets a gradient, so no state either
            memory.gradients += bytes;
            memory.optimizer_state += per_parameter * bytes;
        }
    }
    return memory;
}

}  // namespace ex
