/// @file register_the_buffer_test.cpp
/// @brief Tests of exercise register_the_buffer, built against the learner's file and the
/// solution.
#include "register_the_buffer.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <sstream>

namespace {

/// A scale that is not the identity, so that forgetting it changes the output.
torch::Tensor a_scale() { return torch::diag(torch::tensor({0.5, 2.0, -1.0}, torch::kFloat32)); }

bool has_buffer(const torch::nn::Module& module, const std::string& name) {
    return module.named_buffers().contains(name);
}

// Module::to() moves registered tensors only: a scale kept as a plain member stays on the CPU and
// forward() then mixes devices. Run on a GPU and on the stand-in accelerator (tl_test/standin.h),
// which refuses mixed devices as CUDA does.
void check_scale_moves_to(const torch::Device& device) {
    ex::ScaledLinear model(a_scale(), 2);
    model->to(device);
    CHECK(model->scale.device() == device);
    const auto y = model->forward(torch::randn({4, 3}, device));
    CHECK(y.device() == device);
}

}  // namespace

TEST_CASE("scale is a buffer named scale and not a parameter", "[task_1]") {
    auto matrix = a_scale();
    const ex::ScaledLinear model(matrix, 2);
    REQUIRE(has_buffer(*model, "scale"));
    CHECK(model->named_buffers()["scale"].is_same(model->scale));
    CHECK_FALSE(model->named_parameters().contains("scale"));
    CHECK(model->parameters().size() == 2);
    // The buffer is the model's own copy: the caller may reuse its tensor.
    CHECK_FALSE(model->named_buffers()["scale"].is_alias_of(matrix));
    matrix.zero_();
    TL_CHECK_TENSOR_CLOSE(model->named_buffers()["scale"], a_scale());
}

TEST_CASE("to kFloat64 converts scale together with the weights", "[task_1]") {
    ex::ScaledLinear model(a_scale(), 2);
    model->to(torch::kFloat64);
    CHECK(model->weight.scalar_type() == torch::kFloat64);
    CHECK(model->scale.scalar_type() == torch::kFloat64);
    TL_CHECK_TENSOR_CLOSE(model->scale, a_scale().to(torch::kFloat64));
}

TEST_CASE("forward works after the move to kFloat64", "[task_1]") {
    ex::ScaledLinear model(a_scale(), 2);
    model->to(torch::kFloat64);
    const auto x = torch::randn({4, 3}, torch::kFloat64);
    torch::Tensor y;
    // Unregistered, scale is still float32 here and matmul throws a dtype mismatch.
    REQUIRE_NOTHROW(y = model->forward(x));
    const auto expected =
        x.matmul(a_scale().to(torch::kFloat64)).matmul(model->weight.t()) + model->bias;
    TL_CHECK_TENSOR_CLOSE(y, expected);
}

TEST_CASE("a saved model carries its scale into a fresh one", "[task_1]") {
    const ex::ScaledLinear saved(a_scale(), 2);
    std::stringstream file;
    torch::save(saved, file);
    ex::ScaledLinear fresh(torch::eye(3), 2);  // a different scale, to be overwritten by load
    torch::load(fresh, file);
    TL_CHECK_TENSOR_CLOSE(fresh->scale, a_scale());
    TL_CHECK_TENSOR_CLOSE(fresh->weight, saved->weight);
}

TEST_CASE("on a GPU scale moves with the model", "[gpu][task_1]") {
    TL_REQUIRE_CUDA();
    check_scale_moves_to(torch::Device("cuda:0"));
}

TEST_CASE("on a stand-in device scale moves with the model", "[task_1]") {
    check_scale_moves_to(tl_test::standin::device(1));
}
