/// @file run_on_device_test.cpp
/// @brief Tests of exercise run_on_device, built against the learner's file and the solution.
///
/// A machine without a GPU has one device, the CPU, so switching cannot be seen there. These tests
/// also use a simulated device type: c10's own test double FakeGuardImpl (eight devices, the
/// current one kept in a variable) registered for PrivateUse1, the device type LibTorch reserves
/// for out-of-tree backends. c10::DeviceGuard finds it through the same registry it uses for
/// CUDA, so a guard that switches "privateuseone" devices switches CUDA devices the same way.
#include "run_on_device.h"

#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/FakeGuardImpl.h>
#include <tl_test/tensors.h>

#include <stdexcept>

namespace {

constexpr auto kSimulated = c10::DeviceType::PrivateUse1;
using SimulatedGuardImpl = c10::impl::FakeGuardImpl<kSimulated>;

// Registers the simulated backend once, before the first test case runs.
const bool kSimulatedRegistered = [] {
    static SimulatedGuardImpl impl;
    if (!c10::impl::hasDeviceGuardImpl(kSimulated)) {
        c10::impl::registerDeviceGuard(kSimulated, &impl);
    }
    return true;
}();

c10::Device simulated(int index) { return {kSimulated, static_cast<c10::DeviceIndex>(index)}; }

// Makes simulated device `index` current, as if set_device(index) had been called earlier.
void make_current(int index) {
    REQUIRE(kSimulatedRegistered);
    SimulatedGuardImpl::setDeviceIndex(static_cast<c10::DeviceIndex>(index));
}

int current_index() { return static_cast<int>(SimulatedGuardImpl::getDeviceIndex()); }

}  // namespace

TEST_CASE("on the CPU the body runs once and the CPU is current", "[task_1]") {
    int calls = 0;
    const c10::Device inside =
        ex::run_on_device(c10::Device(c10::DeviceType::CPU), [&] { ++calls; });
    CHECK(calls == 1);
    CHECK(inside == c10::Device(c10::DeviceType::CPU));
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

TEST_CASE("the last GPU is current inside and the first one after", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    const auto gpus = torch::cuda::device_count();
    const c10::Device first(c10::DeviceType::CUDA, 0);
    const c10::Device last(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(gpus - 1));
    const c10::DeviceGuard outer(first);  // start from a known current device
    torch::Tensor made;
    const c10::Device inside = ex::run_on_device(last, [&] {
        made = torch::zeros({2}, torch::TensorOptions().device(c10::DeviceType::CUDA));
    });
    CHECK(inside == last);
    CHECK(made.device() == last);  // "cuda" without an index meant the guard's device
    CHECK(ex::current_device(c10::DeviceType::CUDA) == first);
}
