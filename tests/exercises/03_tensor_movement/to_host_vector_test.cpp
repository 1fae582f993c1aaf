/// @file to_host_vector_test.cpp
/// @brief Tests of exercise to_host_vector, built against the learner's file and the solution.
///
/// Expected vectors are named variables rather than braced lists inside CHECK(): a comma in a
/// braced list would split the macro's argument.
#include "to_host_vector.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <stdexcept>
#include <vector>

using Floats = std::vector<float>;

namespace {

// A transposed (non-contiguous) tensor on `device` comes back in logical order and stays where it
// was. The stand-in accelerator (tl_test/standin.h) keeps its own memory, as a GPU does: reading
// its data pointer as host floats reads the wrong order here.
void check_copied_back_from(const c10::Device& device) {
    const auto t = torch::arange(6, torch::TensorOptions().device(device)).view({2, 3}).t();
    const Floats expected{0, 3, 1, 4, 2, 5};
    CHECK(ex::to_host_vector(t) == expected);
    CHECK(ex::to_host_vector(t.to(torch::kFloat16)) == expected);
    CHECK(t.device() == device);
}

}  // namespace

TEST_CASE("a contiguous float tensor comes back in order", "[task_1]") {
    const auto t = torch::arange(6, torch::kFloat32).view({2, 3});
    const Floats expected{0, 1, 2, 3, 4, 5};
    CHECK(ex::to_host_vector(t) == expected);
}

TEST_CASE("a 0-dim tensor gives one value and an empty tensor none", "[task_1]") {
    const Floats one{2.5F};
    CHECK(ex::to_host_vector(torch::tensor(2.5F)) == one);
    CHECK(ex::to_host_vector(torch::empty({0, 4})).empty());
}

TEST_CASE("an undefined tensor is rejected", "[task_1]") {
    CHECK_THROWS_AS(ex::to_host_vector(torch::Tensor()), std::invalid_argument);
}

TEST_CASE("a transposed view comes back in the order it prints", "[task_2]") {
    // [[0, 1, 2], [3, 4, 5]] transposed is [[0, 3], [1, 4], [2, 5]]; its memory is still 0..5.
    const auto t = torch::arange(6, torch::kFloat32).view({2, 3}).t();
    REQUIRE_FALSE(t.is_contiguous());
    const Floats expected{0, 3, 1, 4, 2, 5};
    CHECK(ex::to_host_vector(t) == expected);
}

TEST_CASE("a strided slice gives only its own elements", "[task_2]") {
    // Elements 1, 4, 7 of 0..9: a storage offset of 1 and a stride of 3.
    const auto t = torch::arange(10, torch::kFloat32).slice(0, 1, 10, 3);
    const Floats expected{1, 4, 7};
    CHECK(ex::to_host_vector(t) == expected);
}

TEST_CASE("a contiguous slice starts at its own first element", "[task_2]") {
    // Elements 2 to 4 of 0..9 are contiguous, so contiguous() returns the slice itself: its
    // storage still holds all ten values, and it starts at offset 2.
    const auto t = torch::arange(10, torch::kFloat32).slice(0, 2, 5);
    REQUIRE(t.is_contiguous());
    REQUIRE(t.storage_offset() == 2);
    const Floats expected{2, 3, 4};
    CHECK(ex::to_host_vector(t) == expected);
}

TEST_CASE("an expanded tensor repeats its value", "[task_2]") {
    // expand() makes a stride-0 view: 4 elements backed by one float in memory.
    const auto t = torch::full({1}, 7.0F).expand({4});
    const Floats expected{7, 7, 7, 7};
    CHECK(ex::to_host_vector(t) == expected);
}

TEST_CASE("integer bool half and double tensors convert to float", "[task_3]") {
    const Floats counts{0, 1, 2};
    CHECK(ex::to_host_vector(torch::arange(3, torch::kInt64)) == counts);
    const Floats doubles{0.5F, -1.25F};
    CHECK(ex::to_host_vector(torch::tensor({0.5, -1.25}, torch::kFloat64)) == doubles);
    const Floats halves{1.5F, 2.0F};
    CHECK(ex::to_host_vector(torch::tensor({1.5F, 2.0F}).to(torch::kFloat16)) == halves);
    const auto flags = torch::arange(3).eq(1);  // [false, true, false]
    const Floats flag_values{0, 1, 0};
    CHECK(ex::to_host_vector(flags) == flag_values);
}

TEST_CASE("a tensor with autograd history is read and left unchanged", "[task_3]") {
    const auto w = torch::ones({3}, torch::requires_grad());
    const auto y = w * 3;
    const Floats expected{3, 3, 3};
    CHECK(ex::to_host_vector(y) == expected);
    CHECK(y.requires_grad());
    TL_CHECK_TENSOR_CLOSE(y.detach(), torch::full({3}, 3.0F));
}

TEST_CASE("a CUDA tensor is copied back to the host", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    check_copied_back_from(c10::Device("cuda:0"));
}

TEST_CASE("a stand-in tensor is copied back to the host", "[task_2]") {
    check_copied_back_from(tl_test::standin::device(1));
}
