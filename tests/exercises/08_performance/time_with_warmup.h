/// @file time_with_warmup.h
/// @brief Exercise time_with_warmup: the API the learner's file implements and the tests call.
#pragma once

#include <functional>
#include <vector>

namespace ex {

/// What the timer needs from a device and a clock, passed as functions so that the same code
/// times a real GPU (torchlings::synchronize and a steady clock) and the tests' fake device.
struct TimingHooks {
    std::function<void()> synchronize;  ///< Returns once all work queued on the device is done.
    std::function<double()> now_ms;     ///< The host's clock, in milliseconds.
};

/// What a timed run reports.
struct Timing {
    std::vector<double> samples_ms;  ///< One per timed repetition, in order; no warm-up run.
    double median_ms = 0;            ///< Their median (mean of the two middle ones when even).
};

/// Runs `work` `warmup` times untimed (one-time costs: context, library handles, allocator), then
/// `repetitions` times, timing each run alone: the device is synchronised before the clock is
/// read at the start (so earlier queued work does not count) and again before it is read at the
/// end (so the run's own queued work does). Like a CUDA launch, `work` may return before its
/// work is done.
/// @throws std::invalid_argument if warmup < 0, repetitions < 1, or a hook or `work` is empty.
Timing time_with_warmup(const std::function<void()>& work, const TimingHooks& hooks, int warmup,
                        int repetitions);

}  // namespace ex
