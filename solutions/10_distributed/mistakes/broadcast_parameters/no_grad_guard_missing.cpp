// Mistake: copying into the parameters with autograd on
// Parameters are leaves that require grad; an in-place copy into one throws "a leaf Variable
// that requires grad is being used in an in-place operation". The tests see the exception.
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
    std::int64_t offset = 0;
    for (const auto& p : parameters) {
        p.copy_(tensors[0].slice(0, offset, offset + p.numel()).view_as(p));
        offset += p.numel();
    }
}

}  // namespace ex
