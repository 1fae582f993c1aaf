/// @file all_reduce_gradients.cpp
/// @brief Exercise all_reduce_gradients (lesson 10): one all-reduce for all gradients.
///
/// After backward, each rank holds the gradient of its own shard's mean loss. Averaging them
/// across the ranks gives every rank the gradient of the whole batch, so all of them take the same
/// step and stay identical.
/// Check it with: ./torchlings check all_reduce_gradients
/// Stuck? ./torchlings hint all_reduce_gradients
#include "all_reduce_gradients.h"

#include <torchlings/exercise.h>

#include <ATen/core/grad_mode.h>
#include <ATen/ops/cat.h>

#include <stdexcept>
#include <string>

namespace ex {

void all_reduce_gradients(const std::vector<at::Tensor>& parameters, c10d::ProcessGroup& group) {
    // TODO: check that every parameter has a gradient; throw std::invalid_argument otherwise.
    // TODO: flatten all gradients into one tensor and all-reduce it (c10d::AllreduceOptions);
    //       wait() for it.
    // TODO: turn the sum into a mean, and copy each slice back into its parameter's gradient.
    (void)parameters;
    (void)group;
    TL_TODO("all_reduce_gradients: one all-reduce of all gradients, then the mean");
}

}  // namespace ex
