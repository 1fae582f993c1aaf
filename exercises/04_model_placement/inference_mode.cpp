/// @file inference_mode.cpp
/// @brief Exercise inference_mode (lesson 04): run a model for inference, the right way.
///
/// Inference needs three things that training does not want: evaluation mode (dropout off,
/// running statistics frozen), no autograd graph (it costs memory and time), and the input where
/// the model is. Write predict() so that every call gets all three.
/// Check it with: ./torchlings check inference_mode
/// Stuck? ./torchlings hint inference_mode
#include "inference_mode.h"

#include <torchlings/exercise.h>

namespace ex {

torch::Tensor predict(TinyNet& model, const torch::Tensor& input) {
    // TODO: put the model in evaluation mode.
    // TODO: stop autograd from recording for the rest of this function only (a scoped guard).
    // TODO: move the input to the device and dtype of the model's parameters, then run forward.
    (void)model;
    (void)input;
    TL_TODO("predict: eval(), a NoGradGuard, the input moved to the model, then forward");
}

}  // namespace ex
