// Mistake: the broadcast tensor is never copied back into the parameters
// torch::cat makes a new tensor: broadcasting it changes that copy only, so the other ranks keep
// their own values. The tests see rank 1 and 2 unchanged.
/// @file broadcast_parameters.cpp
/// @brief Solution of broadcast_parameters (lesson 10): rank 0's parameters, everywhere.
#include "broadcast_parameters.h"

#include <ATen/core/grad_mode.h>
#include <ATen/ops/cat.h>

namespace ex {

void broadcast_parameters(const std::vector<at::Tensor>& parameters, c10d::ProcessGroup& group) {
    std::vector<at::Tensor> pieces;
    pieces.reserve(parameters.size());
    for (const auto& p : parameters) {
        pieces.push_back(p.detach().reshape(-1));
    }
    // One message for all parameters: one round trip, whatever their number.
    std::vector<at::Tensor> tensors{at::cat(pieces)};
    c10d::BroadcastOptions options;
    options.rootRank = 0;  // the same root on every rank
    group.broadcast(tensors, options)->wait();
    // Parameters are leaves that require grad: writing them in place needs no_grad.
    const at::NoGradGuard no_grad;
    std::int64_t offset = 0;
    for (const auto& p : parameters) {
        (void)p;
        offset += p.numel();
    }
}

}  // namespace ex
