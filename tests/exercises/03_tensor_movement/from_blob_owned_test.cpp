/// @file from_blob_owned_test.cpp
/// @brief Tests of exercise from_blob_owned, built against the learner's file and the solution.
#include "from_blob_owned.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <tl_test/operators.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace {

/// Whether `t`'s data lies inside the memory of `values`.
bool points_into(const torch::Tensor& t, const std::vector<float>& values) {
    const auto* p = static_cast<const float*>(t.const_data_ptr());
    return p >= values.data() && p < values.data() + values.size();
}

// How many aten::copy_ calls this thread made into a CPU tensor, seen through LibTorch's operator
// observers (RecordFunction, what the profiler uses): an extra copy on the host shows here. The
// stand-in's own transfer (aten::_copy_from, a backend's copy to and from the CPU) is not counted.
thread_local int host_copies = 0;
thread_local int inside_transfer = 0;

std::unique_ptr<at::ObserverContext> count_host_copies(const at::RecordFunction& fn) {
    const std::string_view name(fn.name());
    if (name == "aten::_copy_from") {
        ++inside_transfer;
    } else if (name == "aten::copy_" && inside_transfer == 0) {
        const auto inputs = fn.inputs();  // copy_(self, src, non_blocking): self is written
        if (!inputs.empty() && inputs[0].isTensor() && inputs[0].toTensor().is_cpu()) {
            ++host_copies;
        }
    }
    return nullptr;
}

void end_of_transfer(const at::RecordFunction& fn, at::ObserverContext* /*context*/) {
    if (std::string_view(fn.name()) == "aten::_copy_from") {
        --inside_transfer;
    }
}

}  // namespace

namespace {

// An upload to `device` lands there and holds the values as they were, whatever happens to the
// vector afterwards. Run on a GPU and on the stand-in accelerator (tl_test/standin.h).
void check_upload_to(const c10::Device& device) {
    std::vector<float> values{1, 2, 3, 4};
    const auto t = ex::upload(values, {2, 2}, device);
    values[0] = 100;
    TL_CHECK_TENSOR_CLOSE(t, torch::tensor({1.0F, 2.0F, 3.0F, 4.0F}).view({2, 2}).to(device));
}

}  // namespace

TEST_CASE("a borrowed tensor shares the vector's memory", "[task_1]") {
    std::vector<float> values{1, 2, 3, 4, 5, 6};
    const auto t = ex::borrowed_tensor(values, {2, 3});
    CHECK(t.sizes() == c10::IntArrayRef({2, 3}));
    CHECK(t.scalar_type() == torch::kFloat32);
    CHECK(t.data_ptr() == static_cast<void*>(values.data()));
    values[4] = 50;  // row 1, column 1
    CHECK(t[1][1].item<float>() == 50.0F);
    t[0][0].fill_(-1);
    CHECK(values[0] == -1.0F);
}

TEST_CASE("a shape that does not match the vector is rejected", "[task_1]") {
    std::vector<float> values{1, 2, 3, 4};
    CHECK_THROWS_AS(ex::borrowed_tensor(values, {3}), std::invalid_argument);
    CHECK_THROWS_AS(ex::borrowed_tensor(values, {2, 3}), std::invalid_argument);
    CHECK_THROWS_AS(ex::borrowed_tensor(values, {-2, -2}), std::invalid_argument);
    CHECK_THROWS_AS(ex::owned_tensor(values, {5}), std::invalid_argument);
    CHECK_THROWS_AS(ex::upload(values, {2}, c10::Device("cpu")), std::invalid_argument);
}

TEST_CASE("a shape whose element count overflows is rejected", "[task_1]") {
    // (2^62 + 1) x 4 is 2^64 + 4 elements: in int64 arithmetic that wraps around to 4, the size
    // of the vector, and 2^32 x 2^32 wraps to 0, the size of an empty one.
    std::vector<float> values{1, 2, 3, 4};
    std::vector<float> empty;
    const std::int64_t big = (std::int64_t{1} << 62) + 1;
    CHECK_THROWS_AS(ex::borrowed_tensor(values, {big, 4}), std::invalid_argument);
    CHECK_THROWS_AS(ex::owned_tensor(values, {4, big}), std::invalid_argument);
    const std::int64_t half = std::int64_t{1} << 32;
    CHECK_THROWS_AS(ex::upload(empty, {half, half}, c10::Device("cpu")), std::invalid_argument);
}

TEST_CASE("an owned tensor holds the vector's values", "[task_2]") {
    const std::vector<float> values{1, 2, 3, 4, 5, 6};
    const auto t = ex::owned_tensor(values, {3, 2});
    TL_CHECK_TENSOR_CLOSE(t, torch::tensor({1.0F, 2.0F, 3.0F, 4.0F, 5.0F, 6.0F}).view({3, 2}));
}

TEST_CASE("an owned tensor keeps its values when the vector changes", "[task_2]") {
    std::vector<float> values{1, 2, 3};
    const auto t = ex::owned_tensor(values, {3});
    REQUIRE_FALSE(points_into(t, values));
    values.assign({-7, -8, -9});
    TL_CHECK_TENSOR_CLOSE(t, torch::tensor({1.0F, 2.0F, 3.0F}));
}

TEST_CASE("an owned tensor outlives the vector", "[task_2]") {
    auto values = std::make_unique<std::vector<float>>(std::vector<float>{4, 5, 6, 7});
    const auto t = ex::owned_tensor(*values, {2, 2});
    // Checked before freeing: reading a tensor that borrowed freed memory is undefined behaviour.
    REQUIRE_FALSE(points_into(t, *values));
    values.reset();
    TL_CHECK_TENSOR_CLOSE(t, torch::tensor({4.0F, 5.0F, 6.0F, 7.0F}).view({2, 2}));
}

TEST_CASE("an upload to the CPU owns its memory too", "[task_3]") {
    std::vector<float> values{1, 2, 3, 4};
    const auto t = ex::upload(values, {4}, c10::Device("cpu"));
    CHECK(t.device() == c10::Device("cpu"));
    REQUIRE_FALSE(points_into(t, values));
    values[0] = 100;
    TL_CHECK_TENSOR_CLOSE(t, torch::tensor({1.0F, 2.0F, 3.0F, 4.0F}));
}

TEST_CASE("an upload lands on the device asked for", "[task_3]") {
    // meta: a device with shapes but no data, available on every machine.
    const std::vector<float> values{1, 2, 3, 4, 5, 6};
    const auto t = ex::upload(values, {2, 3}, c10::Device("meta"));
    CHECK(t.device() == c10::Device("meta"));
    CHECK(t.sizes() == c10::IntArrayRef({2, 3}));
    CHECK(t.scalar_type() == torch::kFloat32);
}

TEST_CASE("an upload to a GPU holds the values", "[gpu][task_3]") {
    TL_REQUIRE_CUDA();
    check_upload_to(c10::Device("cuda:0"));
}

TEST_CASE("an upload to a stand-in device holds the values", "[task_3]") {
    check_upload_to(tl_test::standin::device(1));
}

TEST_CASE("an upload to a stand-in device makes no copy on the host", "[task_3]") {
    // The one copy is the transfer itself: a clone on the host first doubles the host memory and
    // the traffic of every upload to a GPU.
    const auto device = tl_test::standin::device(1);
    const std::vector<float> values{1, 2, 3, 4, 5, 6};
    host_copies = 0;
    torch::Tensor t;
    {
        const tl_test::OperatorWatch watch(count_host_copies, end_of_transfer);
        t = ex::upload(values, {2, 3}, device);
    }
    CHECK(t.device() == device);
    CHECK(host_copies == 0);
}
