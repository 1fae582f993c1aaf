/// @file same_device_test.cpp
/// @brief Tests of exercise same_device, built against the learner's file and the solution.
#include "same_device.h"

#include <tl_test/tensors.h>

#include <stdexcept>

namespace {

const c10::Device kCpu(c10::DeviceType::CPU);
const c10::Device kCpu0(c10::DeviceType::CPU, 0);
const c10::Device kCuda(c10::DeviceType::CUDA);

c10::Device cuda(int index) {
    return {c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(index)};
}

}  // namespace

TEST_CASE("cuda without an index resolves to the current GPU", "[task_1]") {
    CHECK(ex::resolve_device(kCuda, 0) == cuda(0));
    CHECK(ex::resolve_device(kCuda, 3) == cuda(3));
}

TEST_CASE("a GPU with an index resolves to itself", "[task_1]") {
    CHECK(ex::resolve_device(cuda(2), 0) == cuda(2));
    CHECK(ex::resolve_device(cuda(0), 5) == cuda(0));
}

TEST_CASE("the CPU resolves to cpu with or without index 0", "[task_1]") {
    const c10::Device resolved = ex::resolve_device(kCpu0, 0);
    CHECK(resolved == kCpu);
    CHECK_FALSE(resolved.has_index());
    CHECK(ex::resolve_device(kCpu, 2) == kCpu);
}

TEST_CASE("other device types are returned unchanged", "[task_1]") {
    const c10::Device meta(c10::DeviceType::Meta);
    CHECK(ex::resolve_device(meta, 0) == meta);
}

TEST_CASE("cuda without an index and no current GPU is an error", "[task_1]") {
    CHECK_THROWS_AS(ex::resolve_device(kCuda, -1), std::invalid_argument);
}

TEST_CASE("cuda and cuda 0 are the same device when GPU 0 is current", "[task_2]") {
    CHECK(ex::same_device(kCuda, cuda(0), 0));
    CHECK(ex::same_device(cuda(0), kCuda, 0));
}

TEST_CASE("cuda and cuda 0 differ when another GPU is current", "[task_2]") {
    CHECK_FALSE(ex::same_device(kCuda, cuda(0), 1));
    CHECK(ex::same_device(kCuda, cuda(1), 1));
}

TEST_CASE("cpu and cpu 0 are the same device", "[task_2]") {
    CHECK(ex::same_device(kCpu, kCpu0, 0));
}

TEST_CASE("different devices stay different", "[task_2]") {
    CHECK_FALSE(ex::same_device(kCpu, cuda(0), 0));
    CHECK_FALSE(ex::same_device(cuda(0), cuda(1), 0));
    CHECK_FALSE(ex::same_device(kCpu, kCuda, 0));
}

TEST_CASE("a CPU tensor is on the device named cpu 0", "[task_2]") {
    const auto t = torch::zeros({2});
    CHECK(ex::same_device(t.device(), kCpu0, 0));
}

TEST_CASE("a GPU tensor is on cuda while its GPU is current", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    // A CUDA tensor's device() always carries an index, so == Device("cuda") is false.
    const auto t = torch::zeros({2}, torch::TensorOptions().device(kCuda));
    CHECK(t.device().has_index());
    CHECK(ex::same_device(t.device(), kCuda, t.device().index()));
}
