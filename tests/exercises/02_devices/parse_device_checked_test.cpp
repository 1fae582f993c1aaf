/// @file parse_device_checked_test.cpp
/// @brief Tests of exercise parse_device_checked, built against the learner's file and the
/// solution.
#include "parse_device_checked.h"

#include <tl_test/tensors.h>

#include <stdexcept>
#include <string>

using Catch::Matchers::ContainsSubstring;

namespace {

// The message of the std::out_of_range that parse_device_checked throws, or "" if it throws none.
std::string out_of_range_message(const std::string& text, int gpu_count) {
    try {
        (void)ex::parse_device_checked(text, gpu_count);
    } catch (const std::out_of_range& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("the CPU parses on any machine", "[task_1]") {
    CHECK(ex::parse_device_checked("cpu", 0) == c10::Device(c10::DeviceType::CPU));
    CHECK(ex::parse_device_checked("cpu", 4) == c10::Device(c10::DeviceType::CPU));
}

TEST_CASE("an existing GPU parses with its index", "[task_1]") {
    CHECK(ex::parse_device_checked("cuda:0", 1) == c10::Device(c10::DeviceType::CUDA, 0));
    CHECK(ex::parse_device_checked("cuda:3", 4) == c10::Device(c10::DeviceType::CUDA, 3));
}

TEST_CASE("cuda without an index stays without one", "[task_1]") {
    const c10::Device device = ex::parse_device_checked("cuda", 2);
    CHECK(device.is_cuda());
    CHECK_FALSE(device.has_index());
}

TEST_CASE("strings LibTorch rejects are invalid arguments", "[task_1]") {
    for (const char* text : {"gpu", "cuda:abc", "cuda:01", "", "CUDA:0", "cuda:-1", " cpu"}) {
        INFO("text: '" << text << "'");
        CHECK_THROWS_AS(ex::parse_device_checked(text, 8), std::invalid_argument);
    }
}

TEST_CASE("the invalid argument quotes the text", "[task_1]") {
    CHECK_THROWS_WITH(ex::parse_device_checked("cuda:abc", 8), ContainsSubstring("cuda:abc"));
}

TEST_CASE("device types other than cpu and cuda are invalid arguments", "[task_1]") {
    CHECK_THROWS_AS(ex::parse_device_checked("mps", 1), std::invalid_argument);
    CHECK_THROWS_AS(ex::parse_device_checked("meta", 1), std::invalid_argument);
}

TEST_CASE("a GPU past the last one is out of range", "[task_2]") {
    // c10::Device("cuda:7") itself parses fine: only the count says it does not exist.
    CHECK_THROWS_AS(ex::parse_device_checked("cuda:7", 2), std::out_of_range);
    CHECK_THROWS_AS(ex::parse_device_checked("cuda:2", 2), std::out_of_range);
    CHECK_THROWS_AS(ex::parse_device_checked("cuda:0", 0), std::out_of_range);
}

TEST_CASE("cuda without an index needs a GPU", "[task_2]") {
    CHECK_THROWS_AS(ex::parse_device_checked("cuda", 0), std::out_of_range);
}

TEST_CASE("the out of range error names the device and the GPU count", "[task_2]") {
    const std::string message = out_of_range_message("cuda:7", 2);
    INFO("message: " << message);
    REQUIRE_FALSE(message.empty());
    CHECK_THAT(message, ContainsSubstring("cuda:7"));
    CHECK_THAT(message, ContainsSubstring("2"));
}

TEST_CASE("indices too large for an 8-bit DeviceIndex are out of range", "[task_3]") {
    // LibTorch 2.15 reads these as cuda:0, "cuda" (index -1) and cuda:-24: a check of
    // index() < gpu_count alone lets all three through, and one that also wants 0 <= index() but
    // reads a missing index as GPU 0 still lets the first two through.
    CHECK_THROWS_AS(ex::parse_device_checked("cuda:256", 8), std::out_of_range);
    CHECK_THROWS_AS(ex::parse_device_checked("cuda:255", 8), std::out_of_range);
    CHECK_THROWS_AS(ex::parse_device_checked("cuda:1000", 8), std::out_of_range);
}

TEST_CASE("this machine's first GPU parses exactly when it has one", "[task_2]") {
    const int gpus = static_cast<int>(torch::cuda::device_count());
    if (gpus > 0) {
        CHECK(ex::parse_device_checked("cuda:0", gpus) == c10::Device(c10::DeviceType::CUDA, 0));
    } else {
        CHECK_THROWS_AS(ex::parse_device_checked("cuda:0", gpus), std::out_of_range);
    }
}

TEST_CASE("a parsed GPU works for a tensor", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    const int gpus = static_cast<int>(torch::cuda::device_count());
    const c10::Device last = ex::parse_device_checked("cuda:" + std::to_string(gpus - 1), gpus);
    CHECK(torch::ones({2}, torch::TensorOptions().device(last)).device() == last);
}
