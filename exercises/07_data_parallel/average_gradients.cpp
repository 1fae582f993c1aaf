/// @file average_gradients.cpp
/// @brief Exercise average_gradients (lesson 07): reduce the replicas' gradients into the model.
///
/// After every replica has run backward on its own shard, each holds the gradient of ITS shard's
/// mean loss. The gradient of the whole batch's mean loss is their average weighted by shard size.
/// Write that reduction into the original model's gradients, where its optimizer will read them.
/// Check it with: ./torchlings check average_gradients      Stuck? ./torchlings hint
/// average_gradients
#include "average_gradients.h"

#include <torchlings/exercise.h>

#include <numeric>
#include <stdexcept>
#include <string>

namespace ex {

void average_gradients(const std::vector<at::Tensor>& originals,
                       const std::vector<std::vector<at::Tensor>>& replicas,
                       const std::vector<std::int64_t>& shard_sizes) {
    // TODO: check the arguments (see the header) and throw std::invalid_argument, saying what
    //       was expected and what was got.
    // TODO: for each parameter i, add up weight_r * replicas[r][i].grad() with
    //       weight_r = shard_sizes[r] / (sum of all shard sizes), after moving each gradient to
    //       the original parameter's device and dtype.
    // TODO: store the sum as the original parameter's gradient (replace, do not accumulate).
    (void)originals;
    (void)replicas;
    (void)shard_sizes;
    TL_TODO("average_gradients: weighted sum of the replicas' gradients into the original");
}

}  // namespace ex
