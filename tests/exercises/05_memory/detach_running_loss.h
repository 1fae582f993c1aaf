/// @file detach_running_loss.h
/// @brief Exercise detach_running_loss: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace ex {

/// Sums the losses of many steps without keeping their autograd graphs (and the activations the
/// graphs saved) alive, and without copying each loss to the host.
class LossMeter {
  public:
    /// Adds one step's loss: a tensor with exactly one element, which may require grad. The loss
    /// itself is left as it was: the caller can still call backward() on it.
    /// @throws std::invalid_argument if `loss` is undefined or has other than one element.
    void add(const at::Tensor& loss);

    /// The sum of the losses added so far: a 0-dim tensor on the first loss's device and of its
    /// dtype, that does not require grad and has no grad_fn.
    /// @throws std::logic_error if nothing was added yet.
    at::Tensor total() const;

    /// total() / count() as a double.
    /// @throws std::logic_error if nothing was added yet.
    double mean() const;

    /// How many losses were added.
    std::int64_t count() const { return count_; }

  private:
    at::Tensor total_;        ///< Undefined until the first add().
    std::int64_t count_ = 0;  ///< Losses added.
};

}  // namespace ex
