// Mistake: the sum is kept, never divided by the world size
// Every rank then steps with world_size times the batch's gradient, as if the learning rate
// were multiplied by the number of processes. The tests see gradients N times too large.
/// @file all_reduce_gradients.cpp
/// @brief Solution of all_reduce_gradients (lesson 10): one all-reduce for all gradients.
#include "all_reduce_gradients.h"

#include <ATen/core/grad_mode.h>
#include <ATen/ops/cat.h>

#include <stdexcept>
#include <string>

namespace ex {

void all_reduce_gradients(const std::vector<at::Tensor>& parameters, c10d::ProcessGroup& group) {
    std::vector<at::Tensor> pieces;
    pieces.reserve(parameters.size());
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const auto& grad = parameters[i].grad();
        if (!grad.defined()) {
            throw std::invalid_argument("all_reduce_gradients: parameter " + std::to_string(i) +
                                        " has no gradient (run backward() first)");
        }
        pieces.push_back(grad.reshape(-1));
    }
    // One flat buffer: one collective instead of one per parameter (what Reducer's buckets do).
    std::vector<at::Tensor> tensors{at::cat(pieces)};
    c10d::AllreduceOptions options;
    options.reduceOp = c10d::ReduceOp::SUM;  // then divide by the number of ranks
    group.allreduce(tensors, options)->wait();
    const at::NoGradGuard no_grad;
    std::int64_t offset = 0;
    for (const auto& p : parameters) {
        p.mutable_grad().copy_(tensors[0].slice(0, offset, offset + p.numel()).view_as(p));
        offset += p.numel();
    }
}

}  // namespace ex
