/// @file retry_smaller_batch.cpp
/// @brief Exercise retry_smaller_batch (lesson 05): out of memory? Halve the batch and try again.
///
/// A CUDA out-of-memory error is a c10::OutOfMemoryError, a subclass of c10::Error. A training
/// script can catch it, shrink the batch and carry on. The step is passed in as a callable, so the
/// tests can use a stand-in that throws the same error without a GPU.
/// Check it with: ./torchlings check retry_smaller_batch
/// Stuck? ./torchlings hint retry_smaller_batch
#include "retry_smaller_batch.h"

#include <torchlings/exercise.h>

#include <c10/util/Exception.h>

#include <stdexcept>

namespace ex {

std::int64_t run_with_smaller_batch(std::int64_t batch,
                                    const std::function<void(std::int64_t)>& step,
                                    const std::function<void()>& on_oom) {
    // TODO: reject a batch below 1 with std::invalid_argument, before calling step.
    // TODO: call step(batch); if it returns, return the batch.
    // TODO: catch c10::OutOfMemoryError only: call on_oom if it is set, rethrow when the batch is
    //       already 1, otherwise halve the batch and try again.
    (void)batch;
    (void)step;
    (void)on_oom;
    TL_TODO("run_with_smaller_batch: try, catch the OOM, halve, retry");
}

}  // namespace ex
