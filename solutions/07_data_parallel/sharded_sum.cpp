/// @file sharded_sum.cpp
/// @brief Solution of sharded_sum (lesson 07).
#include "sharded_sum.h"

#include <ATen/ops/stack.h>
#include <ATen/ops/zeros.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ex {

at::Tensor sharded_sum(const at::Tensor& x, const std::vector<c10::Device>& devices,
                       const c10::Device& home) {
    if (devices.empty()) {
        throw std::invalid_argument("sharded_sum: expected at least one device, got none");
    }
    const auto flat = x.reshape({-1});
    const std::int64_t n = flat.numel();
    if (n == 0) {
        // x.sum()'s dtype: integers and bool add up in int64, floating point in its own type.
        const auto dtype = c10::isIntegralType(x.scalar_type(), /*includeBool=*/true)
                               ? at::kLong
                               : x.scalar_type();
        return at::zeros({}, at::TensorOptions().dtype(dtype).device(home));
    }
    // No empty shard: with fewer elements than devices, the last devices get nothing to do.
    const auto shards = std::min<std::int64_t>(n, static_cast<std::int64_t>(devices.size()));
    const std::int64_t base = n / shards;
    const std::int64_t extra = n % shards;
    std::vector<at::Tensor> partials;
    std::int64_t start = 0;
    for (std::int64_t i = 0; i < shards; ++i) {
        const std::int64_t length = base + (i < extra ? 1 : 0);
        const auto shard = flat.narrow(0, start, length);
        start += length;
        const auto& device = devices[static_cast<std::size_t>(i)];
        // The shard travels once; the reduction runs where it now lives.
        const auto partial = shard.to(device).sum();
        // Only one number per device travels to home.
        partials.push_back(partial.to(home));
    }
    // The partial sums, gathered on home, are added up there, in their own dtype.
    return at::stack(partials).sum();
}

}  // namespace ex
