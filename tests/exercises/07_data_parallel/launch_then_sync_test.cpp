/// @file launch_then_sync_test.cpp
/// @brief Tests of exercise launch_then_sync, built against the learner's file and the solution.
///
/// The stand-in devices (tl_test/standin.h) compute as soon as they are asked, so the tests give
/// launch_then_sync a fake asynchronous device instead: `work` queues y = 2x + 1 and returns a
/// result full of NaN on x's device, and `synchronize(d)` does the work queued on d. A result
/// read before its device was synchronised is NaN, and a log of the calls shows whether the host
/// waited for a device before every device had its work.
#include "launch_then_sync.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <torchlings/device.h>

#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

// The device that is current for `type` on this thread, as a device guard would restore it.
c10::Device current_device(c10::DeviceType type) {
    return c10::impl::getDeviceGuardImpl(type)->getDevice();
}

struct FakeDevices {
    struct Job {
        torch::Tensor input;
        torch::Tensor output;
    };
    std::vector<std::string> log;          // "launch standin:0", "sync standin:1", ...
    std::vector<c10::Device> current;      // the current device while each launch ran
    std::vector<std::thread::id> threads;  // the thread of each launch
    std::vector<Job> queued;
    std::mutex mutex;  // a learner's code may call work() from several threads

    ex::Work work() {
        return [this](const torch::Tensor& x) {
            const std::lock_guard<std::mutex> lock(mutex);
            log.push_back("launch " + x.device().str());
            current.push_back(current_device(x.device().type()));
            threads.push_back(std::this_thread::get_id());
            auto out = torch::full_like(x, std::numeric_limits<float>::quiet_NaN());
            queued.push_back({x, out});
            return out;
        };
    }

    ex::Synchronize synchronize() {
        return [this](const c10::Device& device) {
            const std::lock_guard<std::mutex> lock(mutex);
            log.push_back("sync " + device.str());
            std::vector<Job> left;
            for (auto& job : queued) {
                if (job.input.device() == device) {
                    job.output.copy_(job.input.mul(2).add(1));
                } else {
                    left.push_back(job);
                }
            }
            queued = left;
        };
    }
};

std::vector<torch::Tensor> inputs_for(std::size_t n) {
    std::vector<torch::Tensor> inputs;
    for (std::size_t i = 0; i < n; ++i) {
        inputs.push_back(torch::arange(3, torch::kFloat32).add(static_cast<double>(10 * i)));
    }
    return inputs;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string all;
    for (const auto& line : lines) {
        all += line + "\n";
    }
    return all;
}

// Every result holds 2x + 1 of its input, on its own device.
void check_results(const std::vector<c10::Device>& devices) {
    FakeDevices fake;
    const auto inputs = inputs_for(devices.size());
    const auto results = ex::launch_then_sync(inputs, devices, fake.work(), fake.synchronize());
    INFO("calls:\n" << joined(fake.log));
    REQUIRE(results.size() == devices.size());
    for (std::size_t i = 0; i < devices.size(); ++i) {
        INFO("result " << i);
        TL_CHECK_TENSOR_CLOSE(results[i], inputs[i].mul(2).add(1).to(devices[i]));
    }
}

}  // namespace

TEST_CASE("a GPU and the CPU driven from one thread", "[gpu][task_1]") {
    TL_REQUIRE_CUDA();
    const std::vector<c10::Device> devices{c10::Device(torch::kCUDA, 0), c10::Device(c10::kCPU)};
    torch::manual_seed(5);
    const std::vector<torch::Tensor> inputs{torch::randn({256, 256}), torch::randn({256, 256})};
    const auto results = ex::launch_then_sync(
        inputs, devices, [](const torch::Tensor& x) { return x.mm(x); },
        [](const c10::Device& d) { torchlings::synchronize(d); });
    REQUIRE(results.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        INFO("result " << i);
        TL_CHECK_TENSOR_CLOSE(results[i], inputs[i].mm(inputs[i]).to(devices[i]), {1e-4, 1e-4});
    }
}

TEST_CASE("every device gets its work before the host waits for any", "[task_1]") {
    const std::vector<c10::Device> devices{tl_test::standin::device(0), tl_test::standin::device(1),
                                           tl_test::standin::device(2)};
    FakeDevices fake;
    ex::launch_then_sync(inputs_for(3), devices, fake.work(), fake.synchronize());
    INFO("calls:\n" << joined(fake.log));
    REQUIRE(fake.log.size() >= 6);
    // The three launches first, in the devices' order, then the waits.
    CHECK(fake.log[0] == "launch standin:0");
    CHECK(fake.log[1] == "launch standin:1");
    CHECK(fake.log[2] == "launch standin:2");
    for (std::size_t i = 3; i < fake.log.size(); ++i) {
        CHECK(fake.log[i].rfind("sync ", 0) == 0);
    }
}

TEST_CASE("results are on their devices and ready to read", "[task_1]") {
    check_results({tl_test::standin::device(0), tl_test::standin::device(1)});
}

TEST_CASE("every device is synchronised, not only one", "[task_1]") {
    // The CPU in the middle, and devices out of order: each must be waited for.
    check_results(
        {tl_test::standin::device(3), c10::Device(c10::kCPU), tl_test::standin::device(1)});
}

TEST_CASE("a device listed twice gets both its inputs", "[task_1]") {
    check_results({c10::Device(c10::kCPU), c10::Device(c10::kCPU)});
    check_results({tl_test::standin::device(4), tl_test::standin::device(4)});
}

TEST_CASE("each launch runs with its device current, from the calling thread", "[task_1]") {
    const std::vector<c10::Device> devices{tl_test::standin::device(1),
                                           tl_test::standin::device(2)};
    tl_test::standin::set_current_index(0);
    FakeDevices fake;
    ex::launch_then_sync(inputs_for(2), devices, fake.work(), fake.synchronize());
    REQUIRE(fake.current.size() == 2);
    // A tensor that work() creates on a bare "standin" (or "cuda") lands on the current device.
    CHECK(fake.current[0] == devices[0]);
    CHECK(fake.current[1] == devices[1]);
    // One host thread drives both: launches return at once, so no thread is needed.
    CHECK(fake.threads[0] == std::this_thread::get_id());
    CHECK(fake.threads[1] == std::this_thread::get_id());
    // The caller's current device is restored.
    CHECK(tl_test::standin::current_index() == 0);
}

TEST_CASE("mismatched arguments are errors", "[task_2]") {
    FakeDevices fake;
    const std::vector<c10::Device> two{tl_test::standin::device(0), tl_test::standin::device(1)};
    CHECK_THROWS_AS(ex::launch_then_sync({}, {}, fake.work(), fake.synchronize()),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::launch_then_sync(inputs_for(1), two, fake.work(), fake.synchronize()),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::launch_then_sync(inputs_for(3), two, fake.work(), fake.synchronize()),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::launch_then_sync(inputs_for(2), two, ex::Work{}, fake.synchronize()),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::launch_then_sync(inputs_for(2), two, fake.work(), ex::Synchronize{}),
                    std::invalid_argument);
    // Checked before anything is launched.
    CHECK(fake.log.empty());
}
