/// @file optimizer_after_move_test.cpp
/// @brief Tests of exercise optimizer_after_move, built against the learner's file and the
/// solution.
///
/// Every case first trains one step with momentum, so that the optimizer has state: that state
/// is what a move can leave behind. On the CPU a change of dtype shows it; a change of device is
/// seen on the stand-in accelerator of the test support (tl_test/standin.h) and on a GPU
/// (Module::to() cannot move a CPU model to the meta device).
#include "optimizer_after_move.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <stdexcept>
#include <vector>

namespace {

constexpr double kLr = 0.1;
constexpr double kMomentum = 0.9;

/// Linear -> BatchNorm -> Linear: parameters and buffers.
torch::nn::Sequential a_model() {
    torch::manual_seed(4);
    return torch::nn::Sequential(torch::nn::Linear(3, 4), torch::nn::BatchNorm1d(4),
                                 torch::nn::Linear(4, 2));
}

/// A model and its SGD with momentum, after one step on the CPU in float32.
struct Training {
    torch::nn::Sequential model = a_model();
    torch::optim::SGD optimizer{model->parameters(),
                                torch::optim::SGDOptions(kLr).momentum(kMomentum)};
    Training() {
        optimizer.zero_grad();
        model->forward(torch::randn({5, 3})).square().mean().backward();
        optimizer.step();
    }
};

torch::Tensor momentum_of(const torch::optim::SGD& optimizer, const torch::Tensor& parameter) {
    const auto& state = optimizer.state().at(parameter.unsafeGetTensorImpl());
    return static_cast<const torch::optim::SGDParamState&>(*state).momentum_buffer();
}

std::vector<torch::Tensor> momenta(const Training& t) {
    std::vector<torch::Tensor> out;
    for (const auto& p : t.model->parameters()) {
        out.push_back(momentum_of(t.optimizer, p).clone());
    }
    return out;
}

// After the move to `device`, parameters and momentum buffers are there and a step runs: momentum
// left on the CPU makes the step mix devices, which throws on CUDA and on the stand-in accelerator
// (tl_test/standin.h) alike.
void check_training_goes_on_at(const c10::Device& device) {
    Training t;
    ex::move_training(*t.model, t.optimizer, device, c10::kFloat);
    for (const auto& p : t.model->parameters()) {
        CHECK(p.device() == device);
        CHECK(momentum_of(t.optimizer, p).device() == device);
    }
    t.optimizer.zero_grad();
    t.model->forward(torch::randn({5, 3}, device)).square().mean().backward();
    REQUIRE_NOTHROW(t.optimizer.step());
}

}  // namespace

TEST_CASE("every parameter and buffer ends on the device in the dtype", "[task_1]") {
    Training t;
    ex::move_training(*t.model, t.optimizer, c10::Device("cpu"), c10::kDouble);
    for (const auto& item : t.model->named_parameters()) {
        INFO(item.key());
        CHECK(item.value().scalar_type() == c10::kDouble);
    }
    CHECK(t.model->named_buffers()["1.running_mean"].scalar_type() == c10::kDouble);
}

TEST_CASE("the optimizer still holds the model's parameters themselves", "[task_1]") {
    Training t;
    const auto before = t.model->parameters();
    ex::move_training(*t.model, t.optimizer, c10::Device("cpu"), c10::kDouble);
    const auto& held = t.optimizer.param_groups().at(0).params();
    const auto now = t.model->parameters();
    REQUIRE(held.size() == now.size());
    for (std::size_t i = 0; i < held.size(); ++i) {
        INFO("parameter " << i);
        CHECK(held[i].is_same(now[i]));
        CHECK(now[i].is_same(before[i]));
    }
}

TEST_CASE("every momentum buffer follows, with its values", "[task_2]") {
    Training t;
    const auto before = momenta(t);
    ex::move_training(*t.model, t.optimizer, c10::Device("cpu"), c10::kDouble);
    const auto parameters = t.model->parameters();
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        INFO("parameter " << i);
        const auto buffer = momentum_of(t.optimizer, parameters[i]);
        REQUIRE(buffer.defined());
        CHECK(buffer.scalar_type() == c10::kDouble);
        TL_CHECK_TENSOR_CLOSE(buffer, before[i].to(c10::kDouble));
    }
}

TEST_CASE("the next step uses the kept momentum, in the new dtype", "[task_2]") {
    Training t;
    const auto buffers = momenta(t);
    ex::move_training(*t.model, t.optimizer, c10::Device("cpu"), c10::kDouble);
    const auto parameters = t.model->parameters();
    std::vector<torch::Tensor> before;
    for (const auto& p : parameters) {
        before.push_back(p.detach().clone());
        p.mutable_grad() = torch::full_like(p, 2.0);
    }
    t.optimizer.step();
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        INFO("parameter " << i);
        // SGD with momentum (no dampening): buf = momentum * buf + grad; p -= lr * buf.
        const auto expected = before[i] - kLr * (kMomentum * buffers[i].to(c10::kDouble) + 2.0);
        TL_CHECK_TENSOR_CLOSE(parameters[i].detach(), expected);
        CHECK(momentum_of(t.optimizer, parameters[i]).scalar_type() == c10::kDouble);
    }
}

TEST_CASE("an integer dtype is rejected before anything moves", "[task_1]") {
    Training t;
    CHECK_THROWS_AS(ex::move_training(*t.model, t.optimizer, c10::Device("cpu"), c10::kLong),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::move_training(*t.model, t.optimizer, c10::Device("cpu"), c10::kInt),
                    std::invalid_argument);
    for (const auto& p : t.model->parameters()) {
        CHECK(p.scalar_type() == c10::kFloat);
        CHECK(p.device() == c10::Device("cpu"));
        CHECK(momentum_of(t.optimizer, p).scalar_type() == c10::kFloat);
        CHECK(momentum_of(t.optimizer, p).device() == c10::Device("cpu"));
    }
}

TEST_CASE("on a GPU training goes on after the move", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    check_training_goes_on_at(c10::Device("cuda:0"));
}

TEST_CASE("on a stand-in device training goes on after the move", "[task_2]") {
    check_training_goes_on_at(tl_test::standin::device(1));
}
