/// @file optimizer_after_move_test.cpp
/// @brief Tests of exercise optimizer_after_move, built against the learner's file and the
/// solution.
#include "optimizer_after_move.h"

#include <tl_test/tensors.h>

#include <stdexcept>

namespace {

/// Linear -> BatchNorm -> Linear: parameters and buffers.
std::shared_ptr<torch::nn::Module> a_model() {
    torch::nn::Sequential model(torch::nn::Linear(3, 4), torch::nn::BatchNorm1d(4),
                                torch::nn::Linear(4, 2));
    return model.ptr();
}

constexpr double kLr = 0.25;

}  // namespace

TEST_CASE("every parameter and buffer ends on the device in the dtype", "[task_1]") {
    const auto trainable =
        ex::prepare_for_training(a_model(), c10::Device("cpu"), c10::kDouble, kLr);
    REQUIRE(trainable.model != nullptr);
    for (const auto& item : trainable.model->named_parameters()) {
        INFO(item.key());
        CHECK(item.value().scalar_type() == c10::kDouble);
        CHECK(item.value().device() == c10::Device("cpu"));
    }
    for (const auto& item : trainable.model->named_buffers()) {
        INFO(item.key());
        CHECK(item.value().device() == c10::Device("cpu"));
    }
    CHECK(trainable.model->named_buffers()["1.running_mean"].scalar_type() == c10::kDouble);
}

TEST_CASE("the optimizer holds the moved parameters themselves", "[task_1]") {
    const auto model = a_model();
    const auto trainable = ex::prepare_for_training(model, c10::Device("cpu"), c10::kDouble, kLr);
    REQUIRE(trainable.optimizer != nullptr);
    CHECK(trainable.model == model);  // the same model, moved in place
    const auto& groups = trainable.optimizer->param_groups();
    REQUIRE(groups.size() == 1);
    const auto& held = groups[0].params();
    const auto expected = model->parameters();
    REQUIRE(held.size() == expected.size());
    for (std::size_t i = 0; i < held.size(); ++i) {
        INFO("parameter " << i);
        CHECK(held[i].is_same(expected[i]));
        CHECK(held[i].data_ptr() == expected[i].data_ptr());
        CHECK(held[i].scalar_type() == c10::kDouble);
    }
}

TEST_CASE("the learning rate is the one asked for", "[task_1]") {
    const auto trainable =
        ex::prepare_for_training(a_model(), c10::Device("cpu"), c10::kFloat, kLr);
    REQUIRE(trainable.optimizer != nullptr);
    const auto& options = static_cast<const torch::optim::SGDOptions&>(
        trainable.optimizer->param_groups()[0].options());
    CHECK(options.lr() == kLr);
    CHECK(options.momentum() == 0.0);
}

TEST_CASE("a step moves each parameter by minus lr times its gradient", "[task_1]") {
    const auto trainable =
        ex::prepare_for_training(a_model(), c10::Device("cpu"), c10::kDouble, kLr);
    REQUIRE(trainable.optimizer != nullptr);
    std::vector<torch::Tensor> before;
    for (auto& p : trainable.model->parameters()) {
        before.push_back(p.detach().clone());
        p.mutable_grad() = torch::full_like(p, 2.0);
    }
    trainable.optimizer->step();
    const auto after = trainable.model->parameters();
    for (std::size_t i = 0; i < after.size(); ++i) {
        INFO("parameter " << i);
        TL_CHECK_TENSOR_CLOSE(after[i].detach(), before[i] - kLr * 2.0);
    }
}

TEST_CASE("an integer dtype is rejected before the model moves", "[task_2]") {
    const auto model = a_model();
    CHECK_THROWS_AS(ex::prepare_for_training(model, c10::Device("cpu"), c10::kLong, kLr),
                    std::invalid_argument);
    for (const auto& p : model->parameters()) {
        CHECK(p.scalar_type() == c10::kFloat);
    }
}

TEST_CASE("a learning rate that is not positive is rejected before the model moves", "[task_2]") {
    const auto model = a_model();
    CHECK_THROWS_AS(ex::prepare_for_training(model, c10::Device("cpu"), c10::kDouble, 0.0),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::prepare_for_training(model, c10::Device("cpu"), c10::kDouble, -0.1),
                    std::invalid_argument);
    for (const auto& p : model->parameters()) {
        CHECK(p.scalar_type() == c10::kFloat);
    }
}

TEST_CASE("on a GPU the optimizer steps CUDA parameters", "[gpu][task_1]") {
    TL_REQUIRE_CUDA();
    const auto trainable =
        ex::prepare_for_training(a_model(), c10::Device("cuda:0"), c10::kFloat, kLr);
    REQUIRE(trainable.optimizer != nullptr);
    for (const auto& p : trainable.optimizer->param_groups()[0].params()) {
        CHECK(p.device() == c10::Device("cuda:0"));
    }
    const auto x = torch::randn({5, 3}, torch::Device("cuda:0"));
    auto& net = *trainable.model->as<torch::nn::Sequential>();
    trainable.optimizer->zero_grad();
    net.forward(x).sum().backward();
    REQUIRE_NOTHROW(trainable.optimizer->step());
}
