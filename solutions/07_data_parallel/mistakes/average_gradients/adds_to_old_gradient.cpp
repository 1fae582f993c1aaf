// Mistake: Adds the average to the gradient already there
// A gradient left from the previous step is then counted again: the reduction replaces it.
#include "average_gradients.h"

#include <numeric>
#include <stdexcept>
#include <string>

namespace ex {

void average_gradients(const std::vector<at::Tensor>& originals,
                       const std::vector<std::vector<at::Tensor>>& replicas,
                       const std::vector<std::int64_t>& shard_sizes) {
    if (replicas.empty() || replicas.size() != shard_sizes.size()) {
        throw std::invalid_argument(
            "average_gradients: expected one shard size per replica and "
            "at least one replica, got " +
            std::to_string(replicas.size()) + " replicas and " +
            std::to_string(shard_sizes.size()) + " shard sizes");
    }
    for (std::size_t r = 0; r < replicas.size(); ++r) {
        if (shard_sizes[r] < 1) {
            throw std::invalid_argument("average_gradients: expected shard sizes >= 1, got " +
                                        std::to_string(shard_sizes[r]) + " for replica " +
                                        std::to_string(r));
        }
        if (replicas[r].size() != originals.size()) {
            throw std::invalid_argument("average_gradients: expected " +
                                        std::to_string(originals.size()) +
                                        " parameters in replica " + std::to_string(r) + ", got " +
                                        std::to_string(replicas[r].size()));
        }
    }
    const auto total = std::accumulate(shard_sizes.begin(), shard_sizes.end(), std::int64_t{0});
    for (std::size_t i = 0; i < originals.size(); ++i) {
        const auto& original = originals[i];
        at::Tensor sum;
        for (std::size_t r = 0; r < replicas.size(); ++r) {
            const auto& grad = replicas[r][i].grad();
            // mutable_grad() would accept a gradient of any shape: check it here instead.
            if (!grad.defined() || !grad.sizes().equals(original.sizes())) {
                throw std::invalid_argument(
                    "average_gradients: expected replica " + std::to_string(r) +
                    " to hold a gradient of parameter " + std::to_string(i) + "'s shape, got " +
                    (grad.defined() ? "another shape" : "none"));
            }
            // A shard's mean loss counts for its share of the rows: weight n_r / total.
            const double weight = static_cast<double>(shard_sizes[r]) / static_cast<double>(total);
            // The reduction happens where the original lives: one copy per replica gradient.
            const auto here = grad.to(original.device(), original.scalar_type());
            if (sum.defined()) {
                sum.add_(here, weight);
            } else {
                sum = here.mul(weight);
            }
        }
        // Replaces any earlier gradient, as if zero_grad() had run before the backward pass.
        if (original.grad().defined()) {
            sum.add_(original.grad());
        }
        original.mutable_grad() = sum;
    }
}

}  // namespace ex
