/// @file model_memory_estimate_test.cpp
/// @brief Tests of exercise model_memory_estimate, built against the learner's file and the
/// solution.
#include "model_memory_estimate.h"

#include <tl_test/tensors.h>

#include <cstdint>
#include <vector>

namespace {

std::uint64_t sum_nbytes(const std::vector<torch::Tensor>& tensors) {
    std::uint64_t total = 0;
    for (const auto& t : tensors) {
        total += t.defined() ? t.nbytes() : 0;
    }
    return total;
}

std::uint64_t grad_nbytes(const std::vector<torch::Tensor>& parameters) {
    std::uint64_t total = 0;
    for (const auto& p : parameters) {
        total += p.grad().defined() ? p.grad().nbytes() : 0;
    }
    return total;
}

torch::nn::Sequential small_net() {
    return torch::nn::Sequential(torch::nn::Linear(20, 16), torch::nn::ReLU(),
                                 torch::nn::Linear(16, 4));
}

// One training step, so that the gradients and the optimizer's state exist.
void train_one_step(torch::nn::Sequential& net, torch::optim::Optimizer& optimizer) {
    optimizer.zero_grad();
    net->forward(torch::randn({8, 20})).pow(2).mean().backward();
    optimizer.step();
}

}  // namespace

TEST_CASE("state tensors per parameter for each optimizer", "[task_1]") {
    CHECK(ex::state_tensors_per_parameter(ex::Optimizer::kSgd) == 0);
    CHECK(ex::state_tensors_per_parameter(ex::Optimizer::kSgdMomentum) == 1);
    CHECK(ex::state_tensors_per_parameter(ex::Optimizer::kAdam) == 2);
}

TEST_CASE("bytes are numel times element size per tensor", "[task_2]") {
    const std::vector<torch::Tensor> params = {torch::zeros({10, 10}).requires_grad_(),
                                               torch::zeros({10}).requires_grad_()};
    const auto adam = ex::estimate_training_memory(params, ex::Optimizer::kAdam);
    CHECK(adam.parameters == 440);  // 110 float32
    CHECK(adam.gradients == 440);
    CHECK(adam.optimizer_state == 880);
    CHECK(adam.total() == 1760);
    const auto sgd = ex::estimate_training_memory(params, ex::Optimizer::kSgd);
    CHECK(sgd.parameters == 440);
    CHECK(sgd.gradients == 440);
    CHECK(sgd.optimizer_state == 0);
}

TEST_CASE("the element size follows the dtype", "[task_2]") {
    const std::vector<torch::Tensor> params = {
        torch::zeros({1000}, torch::kHalf).requires_grad_(),
        torch::zeros({100}, torch::kDouble).requires_grad_()};
    const auto m = ex::estimate_training_memory(params, ex::Optimizer::kSgdMomentum);
    CHECK(m.parameters == 2000 + 800);
    CHECK(m.gradients == 2000 + 800);
    CHECK(m.optimizer_state == 2000 + 800);
}

TEST_CASE("frozen parameters have no gradient and no state", "[task_2]") {
    const std::vector<torch::Tensor> params = {torch::zeros({50}),  // requires_grad false
                                               torch::zeros({25}).requires_grad_()};
    const auto m = ex::estimate_training_memory(params, ex::Optimizer::kAdam);
    CHECK(m.parameters == 300);
    CHECK(m.gradients == 100);
    CHECK(m.optimizer_state == 200);
}

TEST_CASE("the estimate matches a real Adam step", "[task_3]") {
    auto net = small_net();
    torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
    const auto estimate = ex::estimate_training_memory(net->parameters(), ex::Optimizer::kAdam);
    train_one_step(net, adam);
    std::vector<torch::Tensor> state;
    for (const auto& item : adam.state()) {
        const auto& s = static_cast<const torch::optim::AdamParamState&>(*item.second);
        state.push_back(s.exp_avg());
        state.push_back(s.exp_avg_sq());
        state.push_back(s.max_exp_avg_sq());  // undefined without amsgrad: counts 0
    }
    CHECK(estimate.parameters == sum_nbytes(net->parameters()));
    CHECK(estimate.gradients == grad_nbytes(net->parameters()));
    CHECK(estimate.optimizer_state == sum_nbytes(state));
}

TEST_CASE("the estimate matches SGD with momentum and a frozen layer", "[task_3]") {
    auto net = small_net();
    for (auto& p : net[0]->parameters()) {
        p.requires_grad_(false);  // freeze the first Linear
    }
    torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
    const auto estimate =
        ex::estimate_training_memory(net->parameters(), ex::Optimizer::kSgdMomentum);
    train_one_step(net, sgd);
    std::vector<torch::Tensor> state;
    for (const auto& item : sgd.state()) {
        state.push_back(
            static_cast<const torch::optim::SGDParamState&>(*item.second).momentum_buffer());
    }
    CHECK(estimate.parameters == sum_nbytes(net->parameters()));
    CHECK(estimate.gradients == grad_nbytes(net->parameters()));
    CHECK(estimate.optimizer_state == sum_nbytes(state));
    CHECK(estimate.optimizer_state == (16 * 4 + 4) * 4);  // only the second Linear trains
}

TEST_CASE("a parameter past 2 GiB is counted in 64 bits", "[task_2]") {
    // An embedding of 50,000 x 12,288 float32 weights: 2,457,600,000 bytes, more than an int
    // holds. On the meta device it has a shape and a dtype but no memory.
    const std::vector<torch::Tensor> params = {
        torch::empty({50000, 12288}, torch::TensorOptions().device(torch::kMeta)).requires_grad_()};
    const auto m = ex::estimate_training_memory(params, ex::Optimizer::kAdam);
    CHECK(m.parameters == 2457600000ULL);
    CHECK(m.gradients == 2457600000ULL);
    CHECK(m.optimizer_state == 2 * 2457600000ULL);
}

TEST_CASE("a parameter that is a view counts its own elements, not its storage", "[task_2]") {
    // Two halves of one packed weight: each is 10 float32 of a 20-element storage.
    const auto packed = torch::zeros({2, 10});
    const std::vector<torch::Tensor> params = {packed[0].requires_grad_(),
                                               packed[1].requires_grad_()};
    const auto m = ex::estimate_training_memory(params, ex::Optimizer::kSgdMomentum);
    CHECK(m.parameters == 80);
    CHECK(m.gradients == 80);
    CHECK(m.optimizer_state == 80);
}
