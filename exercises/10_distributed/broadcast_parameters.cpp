/// @file broadcast_parameters.cpp
/// @brief Exercise broadcast_parameters (lesson 10): rank 0's parameters, everywhere.
///
/// Each process builds its model with its own random numbers. Data parallelism needs every
/// replica to start equal: before training, rank 0's parameters are broadcast to all ranks.
/// Check it with: ./torchlings check broadcast_parameters
/// Stuck? ./torchlings hint broadcast_parameters
#include "broadcast_parameters.h"

#include <torchlings/exercise.h>

#include <ATen/core/grad_mode.h>
#include <ATen/ops/cat.h>

namespace ex {

void broadcast_parameters(const std::vector<at::Tensor>& parameters, c10d::ProcessGroup& group) {
    // TODO: flatten every parameter (detached) into one tensor.
    // TODO: broadcast it from rank 0 (c10d::BroadcastOptions, rootRank) and wait() for it.
    // TODO: copy each slice back into its parameter, with autograd off.
    (void)parameters;
    (void)group;
    TL_TODO("broadcast_parameters: one broadcast from rank 0, then copy back");
}

}  // namespace ex
