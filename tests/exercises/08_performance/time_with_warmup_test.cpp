/// @file time_with_warmup_test.cpp
/// @brief Tests of exercise time_with_warmup, built against the learner's file and the solution.
///
/// No real clock here: a fake device queues work the way a GPU does (the call returns after a
/// short launch; the work's time passes only when someone synchronises), and a fake clock reads
/// its time. Every expected figure follows from the fake's rules, so nothing depends on the
/// machine.
#include "time_with_warmup.h"

#include "tl_test/catch.h"

#include <stdexcept>
#include <vector>

namespace {

/// A device with a queue and a clock. A call to work() costs kLaunchMs of host time and queues
/// its run time: kFirstCallMs the first time (context, handles, allocator), then kRunMs, or the
/// value in `slow_runs` for that call number. synchronize() lets the clock run until the queue
/// is empty.
struct FakeDevice {
    static constexpr double kLaunchMs = 0.25;
    static constexpr double kFirstCallMs = 100.0;
    static constexpr double kRunMs = 4.0;

    double clock_ms = 0.0;
    double queued_ms = 0.0;
    int calls = 0;
    int syncs = 0;
    std::vector<std::pair<int, double>> slow_runs;  ///< (call number from 0, its run time)

    void work() {
        double run = calls == 0 ? kFirstCallMs : kRunMs;
        for (const auto& [call, ms] : slow_runs) {
            if (call == calls) {
                run = ms;
            }
        }
        clock_ms += kLaunchMs;
        queued_ms += run;
        ++calls;
    }
    void synchronize() {
        clock_ms += queued_ms;
        queued_ms = 0.0;
        ++syncs;
    }
    ex::TimingHooks hooks() {
        return {[this] { synchronize(); }, [this] { return clock_ms; }};
    }
};

constexpr double kOneRun = FakeDevice::kLaunchMs + FakeDevice::kRunMs;

}  // namespace

TEST_CASE("each sample is one whole run: its launch and its queued work", "[task_1]") {
    FakeDevice device;
    const auto timing = ex::time_with_warmup([&] { device.work(); }, device.hooks(), 2, 5);
    REQUIRE(timing.samples_ms.size() == 5);
    for (std::size_t i = 0; i < timing.samples_ms.size(); ++i) {
        INFO("sample " << i << " (a run launches in " << FakeDevice::kLaunchMs
                       << " ms and then takes " << FakeDevice::kRunMs
                       << " ms on the device; a sample of only the launch means no synchronise "
                          "before the clock stopped)");
        CHECK(timing.samples_ms[i] == Catch::Approx(kOneRun));
    }
    CHECK(timing.median_ms == Catch::Approx(kOneRun));
}

TEST_CASE("the warm-up runs first, untimed, and absorbs the first call's one-time cost",
          "[task_1]") {
    FakeDevice device;
    const auto timing = ex::time_with_warmup([&] { device.work(); }, device.hooks(), 3, 4);
    CHECK(device.calls == 3 + 4);
    REQUIRE(timing.samples_ms.size() == 4);
    INFO("the first sample must not include the first call's " << FakeDevice::kFirstCallMs
                                                               << " ms, nor the warm-up's queued "
                                                                  "work (synchronise before the "
                                                                  "clock starts)");
    CHECK(timing.samples_ms.front() == Catch::Approx(kOneRun));
}

TEST_CASE("without warm-up, the first sample shows the one-time cost", "[task_1]") {
    FakeDevice device;
    const auto timing = ex::time_with_warmup([&] { device.work(); }, device.hooks(), 0, 3);
    REQUIRE(timing.samples_ms.size() == 3);
    CHECK(timing.samples_ms[0] == Catch::Approx(FakeDevice::kLaunchMs + FakeDevice::kFirstCallMs));
    CHECK(timing.samples_ms[1] == Catch::Approx(kOneRun));
    CHECK(timing.median_ms == Catch::Approx(kOneRun));
}

TEST_CASE("the median ignores one slow run", "[task_1]") {
    FakeDevice device;
    device.slow_runs = {{4, 60.0}};  // the third timed run (calls 0 and 1 are the warm-up)
    const auto timing = ex::time_with_warmup([&] { device.work(); }, device.hooks(), 2, 5);
    REQUIRE(timing.samples_ms.size() == 5);
    CHECK(timing.samples_ms[2] == Catch::Approx(FakeDevice::kLaunchMs + 60.0));
    INFO("median of the samples, not their mean");
    CHECK(timing.median_ms == Catch::Approx(kOneRun));
}

TEST_CASE("an even number of samples has the mean of the middle two as median", "[task_1]") {
    FakeDevice device;
    device.slow_runs = {{1, 6.0}, {2, 8.0}, {3, 20.0}};  // timed runs of 4 (default), 6, 8, 20 ms
    device.slow_runs.emplace_back(0, 4.0);               // and no first-call cost
    const auto timing = ex::time_with_warmup([&] { device.work(); }, device.hooks(), 0, 4);
    REQUIRE(timing.samples_ms.size() == 4);
    CHECK(timing.median_ms == Catch::Approx(FakeDevice::kLaunchMs + 7.0));
}

TEST_CASE("the samples stay in the order they were taken", "[task_1]") {
    FakeDevice device;
    device.slow_runs = {{1, 9.0}, {2, 1.0}};
    const auto timing = ex::time_with_warmup([&] { device.work(); }, device.hooks(), 1, 3);
    REQUIRE(timing.samples_ms.size() == 3);
    CHECK(timing.samples_ms[0] == Catch::Approx(FakeDevice::kLaunchMs + 9.0));
    CHECK(timing.samples_ms[1] == Catch::Approx(FakeDevice::kLaunchMs + 1.0));
    CHECK(timing.samples_ms[2] == Catch::Approx(kOneRun));
}

TEST_CASE("bad counts and missing functions are errors", "[task_1]") {
    FakeDevice device;
    const auto work = [&] { device.work(); };
    CHECK_THROWS_AS(ex::time_with_warmup(work, device.hooks(), -1, 3), std::invalid_argument);
    CHECK_THROWS_AS(ex::time_with_warmup(work, device.hooks(), 1, 0), std::invalid_argument);
    CHECK_THROWS_AS(ex::time_with_warmup({}, device.hooks(), 1, 3), std::invalid_argument);
    CHECK_THROWS_AS(ex::time_with_warmup(work, ex::TimingHooks{{}, [] { return 0.0; }}, 1, 3),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::time_with_warmup(work, ex::TimingHooks{[] {}, {}}, 1, 3),
                    std::invalid_argument);
    CHECK(device.calls == 0);
}
