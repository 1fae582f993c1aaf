/// @file batches_to_device.cpp
/// @brief Exercise batches_to_device (lesson 06): the training loop's first lines.
///
/// A DataLoader hands out CPU tensors; the model lives on its device, in its dtype. Every batch
/// must follow it there before the step runs — data to the device AND the dtype, targets to the
/// device only (class indices stay int64). The copy can overlap with other work only from pinned
/// host memory to a GPU; that is when non_blocking is worth asking for.
/// Check it with: ./torchlings check batches_to_device      Stuck? ./torchlings hint
/// batches_to_device
#include "batches_to_device.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

bool copy_can_be_async(c10::Device source, bool source_pinned, c10::Device target) {
    // TODO: true only when the source is the CPU, its memory is pinned, and the target is CUDA.
    (void)source;
    (void)source_pinned;
    (void)target;
    TL_TODO("copy_can_be_async: pinned CPU memory to a CUDA device");
}

EpochCount run_epoch(OrderedLoader& loader, c10::Device device, c10::ScalarType dtype,
                     const Step& step) {
    // TODO: reject an empty step with std::invalid_argument, before touching the loader.
    // TODO: for each batch in loader: move batch.data to (device, dtype) and batch.target to
    //       device, each with non_blocking = copy_can_be_async(its device, is_pinned(), device).
    // TODO: call step(data, target); add the batch's rows to samples and one to batches.
    (void)loader;
    (void)device;
    (void)dtype;
    (void)step;
    TL_TODO("run_epoch: move each batch to the model's device and dtype, step, count");
}

}  // namespace ex
