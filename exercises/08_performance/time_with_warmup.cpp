/// @file time_with_warmup.cpp
/// @brief Exercise time_with_warmup (lesson 08): a timer that tells the truth about queued work.
///
/// A GPU op returns as soon as it is queued. Time it with a host clock alone and you measure the
/// queueing. Write the timer every later measurement relies on: warm up, synchronise, repeat,
/// report the median. The tests give it a fake device whose work finishes only when synchronised.
/// Check it with: ./torchlings check time_with_warmup      Stuck? ./torchlings hint
/// time_with_warmup
#include "time_with_warmup.h"

#include <torchlings/exercise.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ex {

Timing time_with_warmup(const std::function<void()>& work, const TimingHooks& hooks, int warmup,
                        int repetitions) {
    // TODO: throw std::invalid_argument for warmup < 0, repetitions < 1, or an empty function
    //       (work, hooks.synchronize, hooks.now_ms), saying what was expected and what was got.
    // TODO: run `work` `warmup` times without timing it.
    // TODO: for each repetition: synchronise, read the clock, run `work`, synchronise, read the
    //       clock again, and keep the difference in samples_ms.
    // TODO: set median_ms to the median of the samples (the mean of the middle two when even).
    (void)work;
    (void)hooks;
    (void)warmup;
    (void)repetitions;
    TL_TODO("time_with_warmup: warm up, then synchronised timed repetitions and their median");
}

}  // namespace ex
