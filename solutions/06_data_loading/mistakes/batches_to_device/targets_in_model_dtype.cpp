// Mistake: Converts the targets to the model's dtype too
// Targets are class indices: cross_entropy wants them int64. Only the data follows the
// model's dtype.
#include "batches_to_device.h"

#include <stdexcept>

namespace ex {

bool copy_can_be_async(c10::Device source, bool source_pinned, c10::Device target) {
    // The GPU's copy engines read pinned host pages directly; pageable memory is staged by the
    // host first, and a copy to the CPU must finish before the host may read it.
    return source.is_cpu() && source_pinned && target.is_cuda();
}

EpochCount run_epoch(OrderedLoader& loader, c10::Device device, c10::ScalarType dtype,
                     const Step& step) {
    // Fail before the loader starts its epoch: an empty std::function throws only when called.
    if (!step) {
        throw std::invalid_argument("run_epoch: expected a step function, got an empty one");
    }
    EpochCount count;
    for (auto& batch : loader) {
        // Data follows the model's device AND dtype; targets are class indices, so only move.
        const auto data = batch.data.to(
            device, dtype, copy_can_be_async(batch.data.device(), batch.data.is_pinned(), device));
        const auto target = batch.target.to(
            device, dtype,
            copy_can_be_async(batch.target.device(), batch.target.is_pinned(), device));
        step(data, target);
        // The stacked batch's first dimension is its row count (short for the last batch).
        count.samples += data.size(0);
        ++count.batches;
    }
    return count;
}

}  // namespace ex
