/// @file timer_test.cpp
/// @brief Tests of torchlings/timer.h.
#include <torchlings/device.h>
#include <torchlings/timer.h>

#include <tl_test/tensors.h>

#include <stdexcept>
#include <thread>

TEST_CASE("median of odd and even counts", "[timer]") {
    CHECK(torchlings::median({3.0, 1.0, 2.0}) == 2.0);
    CHECK(torchlings::median({4.0, 1.0, 3.0, 2.0}) == 2.5);
    CHECK(torchlings::median({7.0}) == 7.0);
    CHECK_THROWS_AS(torchlings::median({}), std::invalid_argument);
}

TEST_CASE("a CPU timer measures elapsed time", "[timer]") {
    torchlings::DeviceTimer timer(c10::Device("cpu"));
    timer.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const double ms = timer.stop_ms();
    CHECK(ms >= 19.0);
    CHECK(ms < 2000.0);
    CHECK(timer.device() == c10::Device("cpu"));
}

TEST_CASE("stop before start is a logic error", "[timer]") {
    torchlings::DeviceTimer timer(c10::Device("cpu"));
    CHECK_THROWS_AS(timer.stop_ms(), std::logic_error);
}

TEST_CASE("time_on_device runs warm-up and timed repetitions", "[timer]") {
    int calls = 0;
    const auto summary = torchlings::time_on_device(
        c10::Device("cpu"), [&] { ++calls; }, 5, 2);
    CHECK(calls == 7);
    CHECK(summary.repetitions == 5);
    CHECK(summary.min_ms <= summary.median_ms);
    CHECK(summary.median_ms <= summary.max_ms);
    CHECK_THROWS_AS(torchlings::time_on_device(
                        c10::Device("cpu"), [] {}, 0, 0),
                    std::invalid_argument);
    CHECK_THROWS_AS(torchlings::time_on_device(
                        c10::Device("cpu"), [] {}, 1, -1),
                    std::invalid_argument);
}

TEST_CASE("a timer for an absent GPU is a DeviceError", "[timer]") {
    const auto absent = c10::Device(c10::DeviceType::CUDA,
                                    static_cast<c10::DeviceIndex>(torch::cuda::device_count()));
    CHECK_THROWS_AS(torchlings::DeviceTimer(absent), torchlings::DeviceError);
}

TEST_CASE("a CUDA timer measures GPU work with events", "[gpu][timer]") {
    TL_REQUIRE_CUDA();
    const c10::Device gpu("cuda:0");
    const auto a = torch::randn({2048, 2048}, torch::TensorOptions().device(gpu));
    const auto summary = torchlings::time_on_device(
        gpu, [&] { (void)a.matmul(a); }, 5, 1);
    CHECK(summary.median_ms > 0.0);
}
