// Mistake: Calls on_oom without checking that it is set
// on_oom is optional: calling an empty std::function throws std::bad_function_call at the
// first out-of-memory error. The tests call without a callback.
#include "retry_smaller_batch.h"

#include <c10/util/Exception.h>

#include <stdexcept>
#include <string>

namespace ex {

std::int64_t run_with_smaller_batch(std::int64_t batch,
                                    const std::function<void(std::int64_t)>& step,
                                    const std::function<void()>& on_oom) {
    if (batch < 1) {
        throw std::invalid_argument("run_with_smaller_batch: expected a batch >= 1, got " +
                                    std::to_string(batch));
    }
    while (true) {
        try {
            step(batch);
            return batch;
        } catch (const c10::OutOfMemoryError&) {  // only OOM: other errors are real bugs
            // The failed step's tensors were freed by the unwinding; nothing else to release.
            on_oom();
            if (batch == 1) {
                throw;  // nothing smaller to try: let the caller see the original error
            }
            batch /= 2;
        }
    }
}

}  // namespace ex
