// Mistake: Retries any c10::Error whose message mentions "out of memory"
// The text is not the type: an out-of-memory error worded otherwise is not retried, and another
// error that mentions memory is. The tests throw both.
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
        } catch (const c10::Error& error) {
            if (std::string(error.what()).find("out of memory") == std::string::npos) {
                throw;
            }
            // The failed step's tensors were freed by the unwinding; nothing else to release.
            if (on_oom) {
                on_oom();
            }
            if (batch == 1) {
                throw;  // nothing smaller to try: let the caller see the original error
            }
            batch /= 2;
        }
    }
}

}  // namespace ex
