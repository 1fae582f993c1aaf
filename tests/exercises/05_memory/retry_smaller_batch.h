/// @file retry_smaller_batch.h
/// @brief Exercise retry_smaller_batch: the API the learner's file implements and the tests call.
#pragma once

#include <cstdint>
#include <functional>

namespace ex {

/// Runs `step(batch)`; when it throws c10::OutOfMemoryError, calls `on_oom` (if set: a place to
/// call torchlings::empty_cache or to log) and runs it again with half the batch (integer
/// division), until a step succeeds. Returns the batch size that succeeded.
/// Only an out-of-memory error is retried: any other exception, including a plain c10::Error,
/// propagates at once. If even a batch of 1 runs out of memory, that error is rethrown.
/// @throws std::invalid_argument if `batch` < 1 (before calling `step`).
std::int64_t run_with_smaller_batch(std::int64_t batch,
                                    const std::function<void(std::int64_t)>& step,
                                    const std::function<void()>& on_oom = {});

}  // namespace ex
