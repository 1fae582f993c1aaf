/// @file peak_tracker.h
/// @brief Exercise peak_tracker: the API the learner's file implements and the tests call.
///
/// A toy model of the CUDA caching allocator's accounting, pure logic and no GPU: "allocated" is
/// what live blocks use, "peak" its highest value since the last reset, "reserved" what the cache
/// holds from the driver. The real allocator also rounds sizes up and splits cached segments;
/// here a freed block can always be reused, so the cache grows only when allocated exceeds it.
#pragma once

#include <cstdint>
#include <vector>

namespace ex {

/// What happened.
enum class EventKind {
    kAlloc,       ///< A block `id` of `bytes` bytes was allocated.
    kFree,        ///< Block `id` was freed (its `bytes` field is ignored).
    kResetPeak,   ///< torchlings::reset_peak_memory(): the peak restarts from allocated.
    kEmptyCache,  ///< torchlings::empty_cache(): cached free blocks go back to the driver.
};

/// One event of the sequence.
struct MemoryEvent {
    EventKind kind = EventKind::kAlloc;  ///< What happened.
    std::int64_t id = 0;                 ///< The block (kAlloc, kFree).
    std::uint64_t bytes = 0;             ///< Its size (kAlloc).
};

/// The accounting after the last event.
struct MemoryReport {
    std::uint64_t allocated = 0;  ///< Bytes of the blocks alive now.
    std::uint64_t peak = 0;       ///< Highest `allocated` since the start or the last reset.
    std::uint64_t reserved = 0;   ///< Bytes the cache holds: grows to cover allocated, shrinks
                                  ///< only at kEmptyCache, and then to exactly `allocated`.
};

/// Replays `events` from an empty allocator.
/// @throws std::invalid_argument for a kAlloc of an id that is alive, or a kFree of an id that is
///         not (never allocated, or freed already); the message names the id and the event index.
MemoryReport replay(const std::vector<MemoryEvent>& events);

}  // namespace ex
