/// @file inference_mode_test.cpp
/// @brief Tests of exercise inference_mode, built against the learner's file and the solution.
#include "inference_mode.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

namespace {

/// What an evaluation-mode forward must give: no dropout, the running mean as it is.
torch::Tensor expected_output(const ex::TinyNet& net, const torch::Tensor& x) {
    const torch::NoGradGuard no_grad;
    return torch::linear(x - net->input_mean, net->weight, net->bias);
}

ex::TinyNet a_trained_net() {
    ex::TinyNet net(5, 3);
    net->forward(torch::randn({16, 5}) + 2.0);  // training mode: input_mean moves off zero
    return net;
}

// The model made float64, then asked to predict `x`: its answer, which must be float64.
torch::Tensor float64_prediction(ex::TinyNet& net, const torch::Tensor& x) {
    net->to(torch::kFloat64);
    torch::Tensor y;
    REQUIRE_NOTHROW(y = ex::predict(net, x));
    CHECK(y.scalar_type() == torch::kFloat64);
    return y;
}

// A model on `device` given a CPU input: predict() moves the input to the model. Run on a GPU and
// on the stand-in accelerator (tl_test/standin.h), where a CPU input left as it is makes the
// forward pass mix devices and throw, as on CUDA.
void check_cpu_input_moved_to(const torch::Device& device) {
    auto net = a_trained_net();
    net->to(device);
    const auto x = torch::randn({4, 5});
    const auto y = ex::predict(net, x);
    CHECK(y.device() == device);
    TL_CHECK_TENSOR_CLOSE(y, expected_output(net, x.to(device)));
}

}  // namespace

TEST_CASE("the model is left in evaluation mode", "[task_1]") {
    auto net = a_trained_net();
    REQUIRE(net->is_training());
    ex::predict(net, torch::randn({4, 5}));
    CHECK_FALSE(net->is_training());
}

TEST_CASE("predictions are deterministic and match the formula", "[task_1]") {
    auto net = a_trained_net();
    const auto x = torch::randn({64, 5});
    const auto first = ex::predict(net, x);
    const auto second = ex::predict(net, x);
    // In training mode dropout would zero about half of the outputs, differently each call.
    TL_CHECK_TENSOR_CLOSE(first, expected_output(net, x));
    TL_CHECK_TENSOR_CLOSE(second, first);
}

TEST_CASE("prediction does not change the running mean", "[task_1]") {
    auto net = a_trained_net();
    const auto before = net->input_mean.clone();
    ex::predict(net, torch::randn({8, 5}) - 3.0);
    TL_CHECK_TENSOR_CLOSE(net->input_mean, before);
}

TEST_CASE("outputs do not require grad and record no graph", "[task_2]") {
    auto net = a_trained_net();
    const auto y = ex::predict(net, torch::randn({4, 5}));
    CHECK_FALSE(y.requires_grad());
    CHECK(y.grad_fn() == nullptr);
}

TEST_CASE("gradient recording is back on after predict", "[task_2]") {
    auto net = a_trained_net();
    ex::predict(net, torch::randn({4, 5}));
    CHECK(torch::GradMode::is_enabled());
    net->train();
    CHECK(net->forward(torch::randn({4, 5})).requires_grad());
}

TEST_CASE("an input of another dtype is converted to the model's", "[task_3]") {
    auto net = a_trained_net();
    const auto x = torch::randn({4, 5}, torch::kFloat32);
    const auto y = float64_prediction(net, x);
    TL_CHECK_TENSOR_CLOSE(y, expected_output(net, x.to(torch::kFloat64)));
}

TEST_CASE("a float64 model computes in float64, its input not rounded on the way", "[task_3]") {
    auto net = a_trained_net();
    const auto x = torch::randn({4, 5}, torch::kFloat64);
    const auto y = float64_prediction(net, x);
    // The same operations in the same dtype: equal far below float32's rounding (about 1e-7).
    CHECK(torch::allclose(y, expected_output(net, x), /*rtol=*/1e-12, /*atol=*/1e-12));
}

TEST_CASE("a float64 input to a float32 model is computed in float32", "[task_3]") {
    // Data often comes as float64 (from a file, from numpy) while the model stays float32: the
    // subtraction of the running mean would promote it, and linear() then refuses two dtypes.
    auto net = a_trained_net();
    const auto x = torch::randn({4, 5}, torch::kFloat64);
    torch::Tensor y;
    REQUIRE_NOTHROW(y = ex::predict(net, x));
    CHECK(y.scalar_type() == torch::kFloat32);
    TL_CHECK_TENSOR_CLOSE(y, expected_output(net, x.to(torch::kFloat32)));
}

TEST_CASE("on a GPU a CPU input is moved to the model", "[gpu][task_3]") {
    TL_REQUIRE_CUDA();
    check_cpu_input_moved_to(torch::Device("cuda:0"));
}

TEST_CASE("on a stand-in device a CPU input is moved to the model", "[task_3]") {
    check_cpu_input_moved_to(tl_test::standin::device(1));
}
