// Mistake: Clears the optimizer's state instead of moving it
// The next step then runs, but restarts the momentum from zero: training is not the same.
// The tests look for every momentum buffer, and check the next step against the formula.
#include "optimizer_after_move.h"

#include <stdexcept>
#include <string>

namespace ex {

void move_training(torch::nn::Module& model, torch::optim::SGD& optimizer, c10::Device device,
                   c10::ScalarType dtype) {
    // Check first, so that a bad call leaves the model and the optimizer exactly as they were.
    if (!c10::isFloatingType(dtype)) {
        throw std::invalid_argument(
            std::string("move_training: expected a floating-point dtype, got ") +
            c10::toString(dtype));
    }
    // One call moves and converts every registered tensor in place: the optimizer still holds
    // the same parameter objects, and its state is still filed under them.
    model.to(device, dtype);
    // The state is the optimizer's own: to() never sees it. Each momentum buffer is replaced by
    // a copy on the new device, in the new dtype, under the same key.
    optimizer.state().clear();
}

}  // namespace ex
