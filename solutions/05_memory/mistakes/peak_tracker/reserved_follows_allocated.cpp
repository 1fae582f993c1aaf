// Mistake: Lowers reserved at every free
// A freed block goes back to the cache, not to the driver: reserved shrinks only at
// empty_cache.
#include "peak_tracker.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace ex {

MemoryReport replay(const std::vector<MemoryEvent>& events) {
    MemoryReport report;
    std::unordered_map<std::int64_t, std::uint64_t>
        alive;  // id -> bytes, to know what a free returns
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& event = events[i];
        const auto where = "block " + std::to_string(event.id) + " at event " + std::to_string(i);
        switch (event.kind) {
            case EventKind::kAlloc:
                if (!alive.emplace(event.id, event.bytes).second) {
                    throw std::invalid_argument("replay: expected a new block, got " + where +
                                                " allocated twice");
                }
                report.allocated += event.bytes;
                report.peak = std::max(report.peak, report.allocated);
                // The cache asks the driver for more only when its free blocks do not suffice.
                report.reserved = std::max(report.reserved, report.allocated);
                break;
            case EventKind::kFree: {
                const auto it = alive.find(event.id);
                if (it == alive.end()) {
                    throw std::invalid_argument("replay: expected a live block, got a free of " +
                                                where + " that is not allocated");
                }
                report.allocated -= it->second;
                report.reserved =
                    report.allocated;  // reserved follows: the block goes to the cache
                alive.erase(it);
                break;
            }
            case EventKind::kResetPeak:
                report.peak = report.allocated;  // the new peak starts from what is alive now
                break;
            case EventKind::kEmptyCache:
                report.reserved = report.allocated;  // live blocks cannot be given back
                break;
        }
    }
    return report;
}

}  // namespace ex
