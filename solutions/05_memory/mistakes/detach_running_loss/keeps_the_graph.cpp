// Mistake: Adds the loss itself, graph and all
// total_.add(loss) joins every step's graph: nothing is freed until the meter goes. The tests
// watch the step's saved input and check the total has no grad_fn.
#include "detach_running_loss.h"

#include <stdexcept>
#include <string>

namespace ex {

void LossMeter::add(const at::Tensor& loss) {
    if (!loss.defined() || loss.numel() != 1) {
        throw std::invalid_argument(
            "LossMeter::add: expected a loss with one element, got " +
            (loss.defined() ? std::to_string(loss.numel()) + " elements" : "an undefined tensor"));
    }
    // detach() shares the value but drops the graph; the loss itself keeps its own.
    const auto value = loss.reshape({});
    if (total_.defined()) {
        total_ = total_.add(value);  // out of place: the sum joins the loss's graph
    } else {
        total_ = value.clone();  // a copy: add_ must never write into the caller's loss
    }
    ++count_;
}

at::Tensor LossMeter::total() const {
    if (count_ == 0) {
        throw std::logic_error("LossMeter::total: no loss was added yet");
    }
    return total_;
}

double LossMeter::mean() const {
    // item() copies one number to the host (and waits for the device), once, not per step.
    return total().item<double>() / static_cast<double>(count_);
}

}  // namespace ex
