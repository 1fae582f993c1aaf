/// @file choose_device_test.cpp
/// @brief Tests of exercise choose_device, built against the learner's file and the solution.
#include "choose_device.h"

#include <tl_test/compare.h>

#include <ATen/ops/ones.h>
#include <torch/cuda.h>

TEST_CASE("an existing GPU is chosen", "[task_1]") {
    CHECK(ex::device_or_cpu(0, 1) == c10::Device("cuda:0"));
    CHECK(ex::device_or_cpu(3, 4) == c10::Device("cuda:3"));
}

TEST_CASE("a GPU past the last one falls back to the CPU", "[task_1]") {
    CHECK(ex::device_or_cpu(1, 1) == c10::Device("cpu"));
    CHECK(ex::device_or_cpu(0, 0) == c10::Device("cpu"));
}

TEST_CASE("a negative GPU index falls back to the CPU", "[task_1]") {
    CHECK(ex::device_or_cpu(-1, 4) == c10::Device("cpu"));
}

TEST_CASE("a machine that reports GPUs gets GPU 0", "[task_2]") {
    // The report is an argument: a GPU machine's report is tested on every machine.
    CHECK(ex::best_available_device(ex::CudaReport{true, 1}) == c10::Device("cuda:0"));
    CHECK(ex::best_available_device(ex::CudaReport{true, 4}) == c10::Device("cuda:0"));
}

TEST_CASE("a machine without usable CUDA gets the CPU", "[task_2]") {
    CHECK(ex::best_available_device(ex::CudaReport{false, 0}) == c10::Device("cpu"));
    // GPUs the driver cannot use (not available) count for nothing.
    CHECK(ex::best_available_device(ex::CudaReport{false, 2}) == c10::Device("cpu"));
}

TEST_CASE("this machine's report is what LibTorch says", "[task_2]") {
    const ex::CudaReport report = ex::this_machine();
    CHECK(report.available == torch::cuda::is_available());
    CHECK(report.device_count == static_cast<int>(torch::cuda::device_count()));
}

TEST_CASE("the best device of this machine matches what LibTorch reports", "[task_2]") {
    const c10::Device expected =
        torch::cuda::is_available() ? c10::Device("cuda:0") : c10::Device("cpu");
    CHECK(ex::best_available_device() == expected);
}

TEST_CASE("a tensor can be created on the best device", "[task_2]") {
    const auto device = ex::best_available_device();
    const auto t = at::ones({3}, at::TensorOptions().device(device));
    CHECK(t.device() == device);
    CHECK(t.sum().item<float>() == 3.0F);
}

TEST_CASE("on a GPU machine the best device is a GPU", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    CHECK(ex::this_machine().available);
    CHECK(ex::best_available_device().is_cuda());
}
