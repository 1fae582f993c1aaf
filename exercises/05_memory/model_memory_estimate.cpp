/// @file model_memory_estimate.cpp
/// @brief Exercise model_memory_estimate (lesson 05): how many bytes will training this model keep?
///
/// Before a model meets a GPU, you can work out what training it costs: the parameters, a gradient
/// for each trainable one, and the optimizer's state (Adam keeps two more tensors per parameter).
/// Write the estimate from the parameter list alone; the tests check it against real tensors.
/// Check it with: ./torchlings check model_memory_estimate
/// Stuck? ./torchlings hint model_memory_estimate
#include "model_memory_estimate.h"

#include <torchlings/exercise.h>

namespace ex {

int state_tensors_per_parameter(Optimizer optimizer) {
    // TODO: return how many parameter-sized tensors each optimizer keeps: plain SGD, SGD with
    //       momentum (its momentum_buffer), Adam (exp_avg and exp_avg_sq).
    (void)optimizer;
    TL_TODO("state_tensors_per_parameter: 0, 1 or 2");
}

TrainingMemory estimate_training_memory(const std::vector<at::Tensor>& parameters,
                                        Optimizer optimizer) {
    // TODO: for every parameter, add numel x element size to `parameters`.
    // TODO: only for the ones that require grad, add a gradient of the same size and the
    //       optimizer's state (state_tensors_per_parameter copies of that size).
    (void)parameters;
    (void)optimizer;
    TL_TODO("estimate_training_memory: parameters, gradients, optimizer state");
}

}  // namespace ex
