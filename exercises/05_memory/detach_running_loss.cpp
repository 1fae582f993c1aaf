/// @file detach_running_loss.cpp
/// @brief Exercise detach_running_loss (lesson 05): sum the losses, not their graphs.
///
/// `total = total + loss` with a loss that requires grad makes the total part of the graph, and
/// keeps every step's graph, with every activation it saved, alive until the total goes. Write a
/// loss meter that keeps only the numbers, on the device, without a host copy per step.
/// Check it with: ./torchlings check detach_running_loss
/// Stuck? ./torchlings hint detach_running_loss
#include "detach_running_loss.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

void LossMeter::add(const at::Tensor& loss) {
    // TODO: reject an undefined loss, or one with other than one element (std::invalid_argument).
    // TODO: add the loss's value, without its graph, to total_ (a 0-dim tensor), and count it.
    //       Do not change `loss` itself: the caller may still call backward() on it.
    (void)loss;
    TL_TODO("LossMeter::add: add the detached value to total_ and count it");
}

at::Tensor LossMeter::total() const {
    // TODO: throw std::logic_error if nothing was added, else return the running total.
    TL_TODO("LossMeter::total: the running total");
}

double LossMeter::mean() const {
    // TODO: the total as a double (one host copy, here only), divided by the count.
    TL_TODO("LossMeter::mean: total over count");
}

}  // namespace ex
