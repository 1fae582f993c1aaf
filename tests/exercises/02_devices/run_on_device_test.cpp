/// @file run_on_device_test.cpp
/// @brief Tests of exercise run_on_device, built against the learner's file and the solution.
///
/// A machine without a GPU has one device, the CPU, so switching cannot be seen there. These tests
/// also use the stand-in accelerator of the test support (tl_test/standin.h): eight devices of a
/// type of their own (LibTorch's PrivateUse1 slot, named "standin"), with a device guard that keeps
/// the current one per thread, as CUDA does. c10::DeviceGuard finds it through the same registry
/// it uses for CUDA, so a guard that switches stand-in devices switches CUDA devices the same way,
/// and tensors made there show which device was current.
#include "run_on_device.h"

#include <c10/core/DeviceGuard.h>
#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <stdexcept>

namespace {

constexpr auto kSimulated = tl_test::standin::kType;

c10::Device simulated(int index) { return tl_test::standin::device(index); }

// Makes simulated device `index` current, as if set_device(index) had been called earlier.
void make_current(int index) { tl_test::standin::set_current_index(index); }

int current_index() { return tl_test::standin::current_index(); }

// With the first device of a type current, the last one is current inside the body: a tensor made
// there on "the current device" (a device without an index) lands on it, and the first is
// current again afterwards.
void check_last_inside_first_after(const c10::Device& first, const c10::Device& last) {
    const c10::DeviceGuard outer(first);  // start from a known current device
    torch::Tensor made;
    const c10::Device inside = ex::run_on_device(
        last, [&] { made = torch::zeros({2}, torch::TensorOptions().device(first.type())); });
    CHECK(inside == last);
    CHECK(made.device() == last);  // a device without an index meant the guard's device
    CHECK(ex::current_device(first.type()) == first);
}

}  // namespace

TEST_CASE("on the CPU the body runs once and the CPU is current", "[task_1]") {
    int calls = 0;
    const c10::Device inside =
        ex::run_on_device(c10::Device(c10::DeviceType::CPU), [&] { ++calls; });
    CHECK(calls == 1);
    CHECK(inside == c10::Device(c10::DeviceType::CPU));
}

TEST_CASE("the last GPU is current inside and the first one after", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    const auto gpus = torch::cuda::device_count();
    check_last_inside_first_after(
        c10::Device(c10::DeviceType::CUDA, 0),
        c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(gpus - 1)));
}

TEST_CASE("the requested device is current inside the body", "[task_1]") {
    make_current(0);
    int seen = -1;
    const c10::Device inside = ex::run_on_device(simulated(3), [&] { seen = current_index(); });
    CHECK(seen == 3);
    CHECK(inside == simulated(3));
}

TEST_CASE("the previous device is current again afterwards", "[task_2]") {
    make_current(5);
    int seen = -1;
    (void)ex::run_on_device(simulated(2), [&] { seen = current_index(); });
    CHECK(seen == 2);
    CHECK(current_index() == 5);
}

TEST_CASE("a device without an index keeps the current one", "[task_2]") {
    make_current(4);
    int seen = -1;
    const c10::Device inside =
        ex::run_on_device(c10::Device(kSimulated), [&] { seen = current_index(); });
    CHECK(seen == 4);
    CHECK(inside == simulated(4));
    CHECK(current_index() == 4);
}

TEST_CASE("the previous device is restored when the body throws", "[task_3]") {
    make_current(1);
    int seen = -1;
    CHECK_THROWS_AS(ex::run_on_device(simulated(6),
                                      [&] {
                                          seen = current_index();
                                          throw std::runtime_error("the body failed");
                                      }),
                    std::runtime_error);
    CHECK(seen == 6);
    CHECK(current_index() == 1);
}

TEST_CASE("the last stand-in device is current inside and the first one after", "[task_2]") {
    check_last_inside_first_after(simulated(0), simulated(tl_test::standin::kDevices - 1));
}
