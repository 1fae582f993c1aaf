/// @file retry_smaller_batch_test.cpp
/// @brief Tests of exercise retry_smaller_batch, built against the learner's file and the
/// solution.
#include "retry_smaller_batch.h"

#include <tl_test/tensors.h>

#include <c10/util/Exception.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace {

// A stand-in for a training step on a GPU that holds `fits` samples: it allocates its activations
// (on the CPU here), then throws the error a CUDA allocation would throw, above the limit.
struct FakeStep {
    std::int64_t fits;
    std::vector<std::int64_t> attempts;

    void operator()(std::int64_t batch) {
        attempts.push_back(batch);
        const auto activations = torch::empty({batch, 8});
        if (batch > fits) {
            throw c10::OutOfMemoryError({__func__, __FILE__, static_cast<std::uint32_t>(__LINE__)},
                                        "fake: out of memory at batch " + std::to_string(batch));
        }
    }
};

// From `first` on a step that holds `fits` samples: the batches tried are `tried`, the last of
// them is the one used, and on_oom is called once per out-of-memory error.
void check_retries(std::int64_t fits, std::int64_t first, const std::vector<std::int64_t>& tried) {
    FakeStep step{fits, {}};
    int ooms = 0;
    const auto used = ex::run_with_smaller_batch(
        first, [&](std::int64_t b) { step(b); }, [&] { ++ooms; });
    CHECK(used == tried.back());
    CHECK(step.attempts == tried);
    CHECK(ooms == static_cast<int>(tried.size()) - 1);
}

}  // namespace

TEST_CASE("a batch that fits runs once", "[task_1]") { check_retries(64, 64, {64}); }

TEST_CASE("the batch halves until it fits", "[task_1]") {
    check_retries(48, 256, {256, 128, 64, 32});
}

TEST_CASE("odd sizes halve by integer division", "[task_1]") {
    FakeStep step{10, {}};
    const auto used = ex::run_with_smaller_batch(100, [&](std::int64_t b) { step(b); });
    CHECK(used == 6);
    CHECK(step.attempts == std::vector<std::int64_t>{100, 50, 25, 12, 6});
}

TEST_CASE("it stops at 1 and rethrows the out-of-memory error", "[task_2]") {
    FakeStep step{0, {}};  // nothing fits
    int ooms = 0;
    CHECK_THROWS_AS(ex::run_with_smaller_batch(
                        8, [&](std::int64_t b) { step(b); }, [&] { ++ooms; }),
                    c10::OutOfMemoryError);
    CHECK(step.attempts == std::vector<std::int64_t>{8, 4, 2, 1});
    CHECK(ooms == 4);
}

TEST_CASE("a batch of 1 that fits works", "[task_2]") {
    FakeStep step{1, {}};
    CHECK(ex::run_with_smaller_batch(1, [&](std::int64_t b) { step(b); }) == 1);
    CHECK(step.attempts == std::vector<std::int64_t>{1});
}

TEST_CASE("other errors are not retried", "[task_3]") {
    int calls = 0;
    // A shape error is a bug, not a lack of memory: a smaller batch would hide it.
    CHECK_THROWS_AS(ex::run_with_smaller_batch(64,
                                               [&](std::int64_t) {
                                                   ++calls;
                                                   TORCH_CHECK(false, "shape mismatch");
                                               }),
                    c10::Error);
    CHECK(calls == 1);
    calls = 0;
    CHECK_THROWS_AS(ex::run_with_smaller_batch(64,
                                               [&](std::int64_t) {
                                                   ++calls;
                                                   throw std::runtime_error("disk full");
                                               }),
                    std::runtime_error);
    CHECK(calls == 1);
}

TEST_CASE("the error's type decides, not its message", "[task_3]") {
    // An out-of-memory error whose text says nothing of memory is still retried...
    std::vector<std::int64_t> attempts;
    const auto used = ex::run_with_smaller_batch(64, [&](std::int64_t b) {
        attempts.push_back(b);
        if (b > 16) {
            throw c10::OutOfMemoryError({__func__, __FILE__, static_cast<std::uint32_t>(__LINE__)},
                                        "allocator: 512 MiB requested, 128 MiB free");
        }
    });
    CHECK(used == 16);
    CHECK(attempts == std::vector<std::int64_t>{64, 32, 16});
    // ...and another error that mentions memory is not.
    int calls = 0;
    CHECK_THROWS_AS(ex::run_with_smaller_batch(64,
                                               [&](std::int64_t) {
                                                   ++calls;
                                                   TORCH_CHECK(false,
                                                               "index 70 is out of memory-mapped "
                                                               "range (CUDA out of memory?)");
                                               }),
                    c10::Error);
    CHECK(calls == 1);
}

TEST_CASE("a batch below 1 is rejected before any step", "[task_3]") {
    int calls = 0;
    const auto step = [&](std::int64_t) { ++calls; };
    CHECK_THROWS_AS(ex::run_with_smaller_batch(0, step), std::invalid_argument);
    CHECK_THROWS_AS(ex::run_with_smaller_batch(-4, step), std::invalid_argument);
    CHECK(calls == 0);
}
