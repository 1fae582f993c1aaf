// Mistake: Returns 0 instead of rethrowing when even a batch of 1 runs out of memory
// When even one sample does not fit, the caller must see the error; returning 0 reports a
// success that never happened.
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
            if (on_oom) {
                on_oom();
            }
            if (batch == 1) {
                return 0;  // nothing smaller to try
            }
            batch /= 2;
        }
    }
}

}  // namespace ex
