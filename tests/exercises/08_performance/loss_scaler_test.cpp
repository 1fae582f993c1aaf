/// @file loss_scaler_test.cpp
/// @brief Tests of exercise loss_scaler, built against the learner's file and the solution.
///
/// On the CPU: ATen's two loss-scaling ops have CPU kernels, and float16 rounds the same there.
#include "loss_scaler.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace {

const c10::Device kCpu(c10::kCPU);

ex::ScalerOptions options(double init_scale, std::int64_t growth_interval = 2000) {
    ex::ScalerOptions o;
    o.init_scale = init_scale;
    o.growth_interval = growth_interval;
    return o;
}

/// loss = sum((w - target)^2): its gradient is 2 (w - target).
torch::Tensor squared_error(const torch::Tensor& w, const torch::Tensor& target) {
    return (w - target).pow(2).sum();
}

}  // namespace

TEST_CASE("scale() multiplies the loss by the current scale", "[task_1]") {
    const ex::LossScaler scaler(kCpu, options(1024.0));
    CHECK(scaler.current_scale() == Catch::Approx(1024.0));
    CHECK(scaler.good_steps() == 0);
    const auto scaled = scaler.scale(torch::tensor(3.0F));
    CHECK(scaled.item<double>() == Catch::Approx(3072.0));
    CHECK(ex::LossScaler(kCpu).current_scale() == Catch::Approx(65536.0));
}

TEST_CASE("unscale_() divides each gradient in place and reports them finite", "[task_1]") {
    ex::LossScaler scaler(kCpu, options(8.0));
    const auto a = torch::tensor({8.0F, -16.0F});
    const auto b = torch::full({2, 2}, 4.0F);
    CHECK(scaler.unscale_({a, b}));
    TL_CHECK_TENSOR_CLOSE(a, torch::tensor({1.0F, -2.0F}));
    TL_CHECK_TENSOR_CLOSE(b, torch::full({2, 2}, 0.5F));
}

TEST_CASE("an inf or a NaN is reported, and forgotten at the next call", "[task_1]") {
    ex::LossScaler scaler(kCpu, options(2.0));
    CHECK_FALSE(scaler.unscale_({torch::tensor({1.0F, std::numeric_limits<float>::infinity()})}));
    CHECK_FALSE(scaler.unscale_({torch::tensor({std::numeric_limits<float>::quiet_NaN()})}));
    INFO("a later call with finite gradients must report them finite");
    CHECK(scaler.unscale_({torch::tensor({2.0F, 4.0F})}));
}

TEST_CASE("update() backs off after an overflow and grows after growth_interval good steps",
          "[task_1]") {
    ex::LossScaler scaler(kCpu, options(1024.0, 3));
    const auto finite = [] { return std::vector<at::Tensor>{torch::ones({3})}; };
    for (int step = 1; step <= 2; ++step) {
        REQUIRE(scaler.unscale_(finite()));
        scaler.update();
        CHECK(scaler.good_steps() == step);
        CHECK(scaler.current_scale() == Catch::Approx(1024.0));
    }
    REQUIRE(scaler.unscale_(finite()));
    scaler.update();
    CHECK(scaler.current_scale() == Catch::Approx(2048.0));
    CHECK(scaler.good_steps() == 0);
    REQUIRE(scaler.unscale_(finite()));
    scaler.update();
    CHECK(scaler.good_steps() == 1);
    REQUIRE_FALSE(scaler.unscale_({torch::tensor({std::numeric_limits<float>::infinity()})}));
    scaler.update();
    CHECK(scaler.current_scale() == Catch::Approx(1024.0));
    CHECK(scaler.good_steps() == 0);
}

TEST_CASE("the scale grows from its current value, again and again", "[task_1]") {
    ex::LossScaler scaler(kCpu, options(8.0, 2));
    const auto finite = [] { return std::vector<at::Tensor>{torch::ones({3})}; };
    for (const double expected : {16.0, 32.0, 64.0}) {
        for (int step = 0; step < 2; ++step) {
            REQUIRE(scaler.unscale_(finite()));
            scaler.update();
        }
        CHECK(scaler.current_scale() == Catch::Approx(expected));
    }
}

TEST_CASE("bad options are errors", "[task_1]") {
    ex::ScalerOptions o;
    o.init_scale = 0.0;
    CHECK_THROWS_AS(ex::LossScaler(kCpu, o), std::invalid_argument);
    o = {};
    o.growth_factor = 1.0;
    CHECK_THROWS_AS(ex::LossScaler(kCpu, o), std::invalid_argument);
    o = {};
    o.backoff_factor = 1.0;
    CHECK_THROWS_AS(ex::LossScaler(kCpu, o), std::invalid_argument);
    o = {};
    o.growth_interval = 0;
    CHECK_THROWS_AS(ex::LossScaler(kCpu, o), std::invalid_argument);
}

TEST_CASE("NaN options are errors", "[task_1]") {
    // Every comparison with NaN is false: `init_scale <= 0` lets a NaN scale through.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    ex::ScalerOptions o;
    o.init_scale = nan;
    CHECK_THROWS_AS(ex::LossScaler(kCpu, o), std::invalid_argument);
    o = {};
    o.growth_factor = nan;
    CHECK_THROWS_AS(ex::LossScaler(kCpu, o), std::invalid_argument);
    o = {};
    o.backoff_factor = nan;
    CHECK_THROWS_AS(ex::LossScaler(kCpu, o), std::invalid_argument);
}

TEST_CASE("a finite step is plain SGD on the true gradient", "[task_2]") {
    ex::LossScaler scaler(kCpu, options(1024.0));
    const auto target = torch::tensor({1.0F, -2.0F, 3.0F});
    const auto w = torch::zeros({3}).requires_grad_(true);
    auto expected = torch::zeros({3});
    for (int step = 0; step < 3; ++step) {
        INFO("step " << step << " (gradients cleared, loss scaled, gradients unscaled?)");
        REQUIRE(ex::scaled_sgd_step(
            {w}, [&] { return squared_error(w, target); }, 0.1, scaler));
        expected = expected - 0.1 * 2.0 * (expected - target);
        TL_CHECK_TENSOR_CLOSE(w.detach(), expected);
    }
    CHECK(scaler.good_steps() == 3);
}

TEST_CASE("a parameter the loss does not use is left alone", "[task_2]") {
    // A frozen or unused layer: backward() gives it no gradient, and the step must skip it
    // rather than hand an undefined tensor to the unscale op (a zero gradient made for it would
    // do no harm here, so only its value is checked).
    ex::LossScaler scaler(kCpu, options(1024.0));
    const auto target = torch::tensor({1.0F, -2.0F, 3.0F});
    const auto w = torch::zeros({3}).requires_grad_(true);
    const auto unused = torch::full({2}, 5.0F).requires_grad_(true);
    REQUIRE(ex::scaled_sgd_step(
        {w, unused}, [&] { return squared_error(w, target); }, 0.1, scaler));
    TL_CHECK_TENSOR_CLOSE(w.detach(), torch::tensor({0.2F, -0.4F, 0.6F}));
    TL_CHECK_TENSOR_CLOSE(unused.detach(), torch::full({2}, 5.0F));
    CHECK(scaler.good_steps() == 1);
}

TEST_CASE("a scaler on a stand-in device keeps its state there and steps a model there",
          "[task_2]") {
    // The stand-in accelerator (tl_test/standin.h) is a device that is not the CPU on every
    // machine: state made on the CPU instead meets a loss and gradients on the device, which
    // throws there as on a GPU.
    const auto device = tl_test::standin::device(1);
    ex::LossScaler scaler(device, options(1024.0));
    const auto on_device = torch::TensorOptions().device(device);
    CHECK(scaler.scale(torch::tensor(2.0F, on_device)).device() == device);
    const auto target = torch::tensor({1.0F, -2.0F, 3.0F}, on_device);
    const auto w = torch::zeros({3}, on_device).requires_grad_(true);
    REQUIRE(ex::scaled_sgd_step(
        {w}, [&] { return squared_error(w, target); }, 0.1, scaler));
    CHECK(w.device() == device);
    TL_CHECK_TENSOR_CLOSE(w.detach().cpu(), torch::tensor({0.2F, -0.4F, 0.6F}));
    CHECK(scaler.good_steps() == 1);
    CHECK(scaler.current_scale() == Catch::Approx(1024.0));
}

TEST_CASE("an overflowing step is skipped, and the scale backs off", "[task_2]") {
    ex::LossScaler scaler(kCpu);
    const auto w = torch::ones({2}).requires_grad_(true);
    // The gradient 1e36 is finite; times the scale 65536 it is not, in float32.
    const bool taken = ex::scaled_sgd_step(
        {w}, [&] { return (w * 1e36).sum(); }, 0.1, scaler);
    CHECK_FALSE(taken);
    INFO("a skipped step leaves the parameters as they were");
    TL_CHECK_TENSOR_CLOSE(w.detach(), torch::ones({2}));
    CHECK(scaler.current_scale() == Catch::Approx(32768.0));
    CHECK(scaler.good_steps() == 0);
}

TEST_CASE("scaling keeps a float16 gradient that would otherwise round to zero", "[task_2]") {
    // float32 master weight; the forward pass in float16, as under autocast. d loss / d w = 1e-8,
    // below float16's smallest number (about 6e-8).
    const auto loss_of = [](const torch::Tensor& w) {
        return ((w.to(torch::kHalf) * 1e-4) * 1e-4).sum().to(torch::kFloat);
    };
    const auto plain = torch::ones({1}).requires_grad_(true);
    loss_of(plain).backward();
    REQUIRE(plain.grad().item<float>() == 0.0F);  // the problem, without a scaler

    ex::LossScaler scaler(kCpu, options(1024.0));
    const auto w = torch::ones({1}).requires_grad_(true);
    REQUIRE(ex::scaled_sgd_step(
        {w}, [&] { return loss_of(w); }, 1e6, scaler));
    CHECK(w.grad().item<double>() == Catch::Approx(1e-8).epsilon(0.01));
    CHECK(w.item<double>() == Catch::Approx(1.0 - 1e6 * 1e-8).epsilon(1e-4));
}

TEST_CASE("no parameters or a bad learning rate are errors", "[task_2]") {
    ex::LossScaler scaler(kCpu);
    const auto w = torch::ones({1}).requires_grad_(true);
    CHECK_THROWS_AS(ex::scaled_sgd_step(
                        {}, [&] { return w.sum(); }, 0.1, scaler),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::scaled_sgd_step(
                        {w}, [&] { return w.sum(); }, -0.1, scaler),
                    std::invalid_argument);
    CHECK_THROWS_AS(
        ex::scaled_sgd_step(
            {w}, [&] { return w.sum(); }, std::numeric_limits<double>::quiet_NaN(), scaler),
        std::invalid_argument);
}
