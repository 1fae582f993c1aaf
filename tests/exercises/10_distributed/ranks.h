/// @file ranks.h
/// @brief Test support for lesson 10: a job of `world` ranks as threads of this one process, each
/// with its own Gloo process group over one shared in-memory store (c10d::HashStore).
///
/// Threads test the collectives' logic in a fraction of the time separate processes take (the
/// lesson's own tests start real processes). Catch2's assertions are not thread-safe, so each rank
/// returns what it saw and the test asserts afterwards, on the main thread.
#pragma once

#include <torchlings/distributed.h>

#include <torch/csrc/distributed/c10d/HashStore.hpp>

#include <chrono>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace ranks {

/// A collective that waits longer than this for a peer fails instead of hanging the test.
constexpr std::chrono::seconds kTimeout{10};

using Group = c10::intrusive_ptr<c10d::ProcessGroup>;

/// Runs body(rank, group) on `world` threads and returns each rank's result, in rank order.
/// Rethrows the lowest rank's exception, if any rank threw.
template <typename Result>
std::vector<Result> run(int world, const std::function<Result(int, c10d::ProcessGroup&)>& body) {
    auto store = c10::make_intrusive<c10d::HashStore>();
    std::vector<Result> results(static_cast<std::size_t>(world));
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(world));
    std::vector<std::thread> threads;
    for (int rank = 0; rank < world; ++rank) {
        threads.emplace_back([&, rank] {
            const auto r = static_cast<std::size_t>(rank);
            try {
                const Group group =
                    torchlings::dist::make_process_group(store, rank, world, kTimeout);
                results[r] = body(rank, *group);
            } catch (...) {
                errors[r] = std::current_exception();
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    for (const auto& error : errors) {
        if (error) {
            std::rethrow_exception(error);
        }
    }
    return results;
}

}  // namespace ranks
