/// @file peak_tracker.cpp
/// @brief Exercise peak_tracker (lesson 05): allocated, peak and reserved, by hand.
///
/// Replay a sequence of allocations and frees the way the CUDA caching allocator counts them:
/// what is alive, the highest it has been since the last reset, and what the cache keeps from the
/// driver. Pure logic: no GPU and no LibTorch needed.
/// Check it with: ./torchlings check peak_tracker      Stuck? ./torchlings hint peak_tracker
#include "peak_tracker.h"

#include <torchlings/exercise.h>

#include <stdexcept>

namespace ex {

MemoryReport replay(const std::vector<MemoryEvent>& events) {
    // TODO: remember the size of every live block by id (a free must know what it returns).
    // TODO: kAlloc: reject an id that is alive; raise allocated, the peak, and reserved if the
    //       cache no longer covers allocated.
    // TODO: kFree: reject an id that is not alive; lower allocated (reserved stays: cached).
    // TODO: kResetPeak: the peak restarts from allocated. kEmptyCache: reserved drops to
    //       allocated.
    (void)events;
    TL_TODO("replay: count allocated, peak and reserved over the events");
}

}  // namespace ex
