/// @file sharded_sum_test.cpp
/// @brief Tests of exercise sharded_sum, built against the learner's file and the solution.
///
/// The stand-in devices (tl_test/standin.h) count the bytes each one is given: a shard that
/// reached its device shows in that device's peak, and a home device that received whole shards
/// instead of partial sums shows in its own. Mixing two stand-in devices in one operator throws,
/// as on CUDA, so partial sums left on their devices cannot be added up unnoticed.
#include "sharded_sum.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <array>
#include <cstdint>
#include <stdexcept>

namespace {

using tl_test::standin::device;

// What each stand-in device was given during one call: bytes above what it held before (at
// most), and blocks handed out.
struct Usage {
    std::int64_t peak_bytes = 0;
    std::int64_t allocations = 0;
};

struct Watch {
    std::array<tl_test::standin::MemoryStats, tl_test::standin::kDevices> before{};
    Watch() {
        for (int i = 0; i < tl_test::standin::kDevices; ++i) {
            tl_test::standin::reset_peak(i);
            before.at(static_cast<std::size_t>(i)) = tl_test::standin::memory_stats(i);
        }
    }
    [[nodiscard]] Usage of(int index) const {
        const auto now = tl_test::standin::memory_stats(index);
        const auto& then = before.at(static_cast<std::size_t>(index));
        return {now.peak - then.allocated, now.allocations - then.allocations};
    }
};

}  // namespace

TEST_CASE("a GPU and the CPU share a sum", "[gpu][task_1]") {
    TL_REQUIRE_CUDA();
    torch::manual_seed(4);
    const auto x = torch::randn({1000, 10});
    const c10::Device gpu(torch::kCUDA, 0);
    TL_CHECK_TENSOR_CLOSE(ex::sharded_sum(x, {gpu, c10::Device(c10::kCPU)}, gpu), x.sum().to(gpu),
                          {1e-4, 1e-3});
}

TEST_CASE("each device sums its own shard and home gets only the partial sums", "[task_1]") {
    // 3000 float64 values, 8000 bytes a shard; home is none of the devices.
    const auto x = torch::arange(3000, torch::kFloat64);
    const Watch watch;
    const auto sum = ex::sharded_sum(x, {device(1), device(2), device(3)}, device(4));
    TL_CHECK_TENSOR_CLOSE(sum, torch::tensor(4498500.0, torch::kFloat64).to(device(4)));
    for (int i = 1; i <= 3; ++i) {
        INFO("standin:" << i << " was given " << watch.of(i).peak_bytes << " bytes at most");
        CHECK(watch.of(i).peak_bytes >= 8000);
    }
    INFO("home was given " << watch.of(4).peak_bytes << " bytes at most");
    CHECK(watch.of(4).peak_bytes < 1000);
}

TEST_CASE("uneven shards are summed in full", "[task_1]") {
    // 10 elements over 4 devices: shards of 3, 3, 2 and 2.
    const auto x = torch::arange(1, 11, torch::kFloat32);
    const auto sum = ex::sharded_sum(x, {device(0), c10::Device(c10::kCPU), device(2), device(3)},
                                     c10::Device(c10::kCPU));
    TL_CHECK_TENSOR_CLOSE(sum, torch::tensor(55.0F));
}

TEST_CASE("the sum lands on home, which may be one of the devices", "[task_1]") {
    torch::manual_seed(2);
    const auto x = torch::randn({7, 5});
    const auto on_first = ex::sharded_sum(x, {device(5), device(6)}, device(5));
    TL_CHECK_TENSOR_CLOSE(on_first, x.sum().to(device(5)), {1e-5, 1e-5});
    const auto on_last = ex::sharded_sum(x, {device(5), device(6)}, device(6));
    TL_CHECK_TENSOR_CLOSE(on_last, x.sum().to(device(6)), {1e-5, 1e-5});
    const auto on_cpu = ex::sharded_sum(x, {device(5), device(6)}, c10::Device(c10::kCPU));
    TL_CHECK_TENSOR_CLOSE(on_cpu, x.sum(), {1e-5, 1e-5});
}

TEST_CASE("a tensor on a stand-in device, of any shape, over repeated devices", "[task_1]") {
    const auto x = torch::arange(24, torch::kFloat32).reshape({2, 3, 4}).to(device(7));
    const auto sum = ex::sharded_sum(x, {c10::Device(c10::kCPU), device(6), device(6)}, device(7));
    TL_CHECK_TENSOR_CLOSE(sum, torch::tensor(276.0F).to(device(7)));
}

TEST_CASE("integers and bools add up in int64, floats in their own dtype", "[task_1]") {
    // Four values of 2^30: their sum, 2^32, does not fit in int32.
    const auto big = torch::full({4}, std::int64_t{1} << 30, torch::kInt32);
    TL_CHECK_TENSOR_CLOSE(ex::sharded_sum(big, {device(0), device(1)}, device(2)),
                          torch::tensor(std::int64_t{1} << 32).to(device(2)));
    const auto flags = torch::tensor({true, false, true, true, true});
    TL_CHECK_TENSOR_CLOSE(ex::sharded_sum(flags, {device(0), device(1)}, c10::Device(c10::kCPU)),
                          torch::tensor(std::int64_t{4}));
    const auto precise = torch::tensor({1.0, 1e-12, 2.0}, torch::kFloat64);
    TL_CHECK_TENSOR_CLOSE(ex::sharded_sum(precise, {device(0), device(1)}, device(2)),
                          torch::tensor(3.000000000001, torch::kFloat64).to(device(2)),
                          {1e-15, 0.0});
}

TEST_CASE("a device that would get nothing gets no work", "[task_1]") {
    // Two elements, four devices: standin:3 and standin:4 have no shard.
    const auto x = torch::tensor({5, 7}, torch::kInt32);
    const Watch watch;
    const auto sum =
        ex::sharded_sum(x, {device(1), device(2), device(3), device(4)}, c10::Device(c10::kCPU));
    TL_CHECK_TENSOR_CLOSE(sum, torch::tensor(std::int64_t{12}));
    CHECK(watch.of(1).allocations > 0);
    CHECK(watch.of(2).allocations > 0);
    CHECK(watch.of(3).allocations == 0);
    CHECK(watch.of(4).allocations == 0);
}

TEST_CASE("an empty tensor sums to a zero on home", "[task_1]") {
    const Watch watch;
    const auto empty_ints = torch::zeros({0, 3}, torch::kInt32);
    TL_CHECK_TENSOR_CLOSE(ex::sharded_sum(empty_ints, {device(1), device(2)}, device(3)),
                          torch::tensor(std::int64_t{0}).to(device(3)));
    CHECK(watch.of(1).allocations == 0);
    CHECK(watch.of(2).allocations == 0);
    const auto empty_floats = torch::zeros({0}, torch::kFloat32);
    TL_CHECK_TENSOR_CLOSE(ex::sharded_sum(empty_floats, {c10::Device(c10::kCPU)}, device(3)),
                          torch::tensor(0.0F).to(device(3)));
}

TEST_CASE("no device is an error", "[task_2]") {
    CHECK_THROWS_AS(ex::sharded_sum(torch::ones({3}), {}, c10::Device(c10::kCPU)),
                    std::invalid_argument);
}

TEST_CASE("with one device the sum still lands on home", "[task_1]") {
    // Nothing to spread, but the result is home's: not left on the device that did the work.
    const auto x = torch::arange(1, 7, torch::kFloat32);
    TL_CHECK_TENSOR_CLOSE(ex::sharded_sum(x, {device(4)}, device(5)),
                          torch::tensor(21.0F).to(device(5)));
    TL_CHECK_TENSOR_CLOSE(ex::sharded_sum(x, {device(4)}, c10::Device(c10::kCPU)),
                          torch::tensor(21.0F));
}
