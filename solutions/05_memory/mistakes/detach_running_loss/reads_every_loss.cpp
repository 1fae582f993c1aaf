// Mistake: Copies each loss to the host with item()
// Right values, but every step waits for the device to finish. The tests add losses on the
// meta device (no data), whose value cannot be read.
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
    const auto value = loss.detach().new_full({}, loss.item<double>());
    if (total_.defined()) {
        total_.add_(value);  // in place: one 0-dim tensor for the whole run, no new allocation
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
