// Mistake: Stop the clock without synchronising
// Without a synchronise before the second clock read, a sample is only the launch: on a GPU
// the work is still queued. The fake device shows samples of 0.25 ms instead of 4.25 ms.
/// @file time_with_warmup.cpp
/// @brief Solution of time_with_warmup (lesson 08).
#include "time_with_warmup.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ex {

Timing time_with_warmup(const std::function<void()>& work, const TimingHooks& hooks, int warmup,
                        int repetitions) {
    if (warmup < 0 || repetitions < 1) {
        throw std::invalid_argument(
            "time_with_warmup: expected warmup >= 0 and repetitions >= 1, got " +
            std::to_string(warmup) + " and " + std::to_string(repetitions));
    }
    if (!work || !hooks.synchronize || !hooks.now_ms) {
        throw std::invalid_argument(
            "time_with_warmup: expected work, hooks.synchronize and hooks.now_ms to be set");
    }
    // The first calls pay one-time costs that no later call pays: keep them out of the samples.
    for (int i = 0; i < warmup; ++i) {
        work();
    }
    Timing timing;
    timing.samples_ms.reserve(static_cast<std::size_t>(repetitions));
    for (int i = 0; i < repetitions; ++i) {
        hooks.synchronize();  // work queued earlier (the warm-up) must not land in this sample
        const double start = hooks.now_ms();
        work();
        timing.samples_ms.push_back(hooks.now_ms() - start);
    }
    // The median, not the mean: one run slowed by another process must not move the figure.
    auto sorted = timing.samples_ms;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t middle = sorted.size() / 2;
    timing.median_ms =
        sorted.size() % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
    return timing;
}

}  // namespace ex
