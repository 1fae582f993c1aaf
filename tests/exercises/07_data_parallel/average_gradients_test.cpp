/// @file average_gradients_test.cpp
/// @brief Tests of exercise average_gradients, built against the learner's file and the solution.
#include "average_gradients.h"

#include "mlp.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <stdexcept>

namespace {

// A parameter-shaped leaf with a given gradient, as a replica's would be after backward().
torch::Tensor with_grad(const torch::Tensor& value, const torch::Tensor& grad) {
    auto parameter = value.detach().clone().requires_grad_(true);
    parameter.mutable_grad() = grad;
    return parameter;
}

// Two replicas' gradients, on devices a and b, averaged onto an original on `home`: the sum is
// made on the original's device. Run on a GPU and on the stand-in accelerator
// (tl_test/standin.h), where adding gradients of two devices throws as on CUDA.
void check_reduced_onto(const c10::Device& home, const c10::Device& a_device,
                        const c10::Device& b_device) {
    const auto original = torch::zeros({2}, torch::device(home).requires_grad(true));
    const auto a = with_grad(torch::zeros({2}, torch::device(a_device)),
                             torch::tensor({2.0F, 2.0F}).to(a_device));
    const auto b = with_grad(torch::zeros({2}, torch::device(b_device)),
                             torch::tensor({4.0F, 0.0F}).to(b_device));
    ex::average_gradients({original}, {{a}, {b}}, {1, 1});
    REQUIRE(original.grad().defined());
    TL_CHECK_TENSOR_CLOSE(original.grad(), torch::tensor({3.0F, 1.0F}).to(home));
}

}  // namespace

TEST_CASE("equal shards give the plain mean", "[task_2]") {
    const auto original = torch::zeros({2}, torch::requires_grad());
    const auto a = with_grad(original, torch::tensor({1.0F, 2.0F}));
    const auto b = with_grad(original, torch::tensor({3.0F, 6.0F}));
    ex::average_gradients({original}, {{a}, {b}}, {4, 4});
    TL_CHECK_TENSOR_CLOSE(original.grad(), torch::tensor({2.0F, 4.0F}));
}

TEST_CASE("shards count in proportion to their rows", "[task_2]") {
    const auto original = torch::zeros({3}, torch::requires_grad());
    const auto a = with_grad(original, torch::tensor({4.0F, 0.0F, 1.0F}));
    const auto b = with_grad(original, torch::tensor({0.0F, 4.0F, 1.0F}));
    const auto c = with_grad(original, torch::tensor({0.0F, 0.0F, 1.0F}));
    ex::average_gradients({original}, {{a}, {b}, {c}}, {1, 2, 1});
    TL_CHECK_TENSOR_CLOSE(original.grad(), torch::tensor({1.0F, 2.0F, 1.0F}));
    // The replicas' gradients are inputs: unchanged, and not shared with the result.
    TL_CHECK_TENSOR_CLOSE(a.grad(), torch::tensor({4.0F, 0.0F, 1.0F}));
    TL_CHECK_TENSOR_CLOSE(b.grad(), torch::tensor({0.0F, 4.0F, 1.0F}));
    CHECK_FALSE(original.grad().is_alias_of(a.grad()));
}

TEST_CASE("a single replica's gradient is copied, not shared", "[task_2]") {
    const auto original = torch::zeros({2}, torch::requires_grad());
    const auto a = with_grad(original, torch::tensor({1.0F, 3.0F}));
    ex::average_gradients({original}, {{a}}, {5});
    TL_CHECK_TENSOR_CLOSE(original.grad(), torch::tensor({1.0F, 3.0F}));
    CHECK_FALSE(original.grad().is_alias_of(a.grad()));
}

TEST_CASE("the gradient lands on the original's device, seen on meta", "[task_2]") {
    // meta holds shapes and no data, on every machine: a sum left on the replicas' device (the
    // CPU here) shows as it would for replicas on GPUs and an original elsewhere.
    const auto original = torch::zeros(
        {2}, torch::dtype(torch::kFloat64).device(torch::Device("meta")).requires_grad(true));
    const auto a = with_grad(torch::zeros({2}), torch::tensor({1.0F, 1.0F}));
    const auto b = with_grad(torch::zeros({2}), torch::tensor({2.0F, 4.0F}));
    ex::average_gradients({original}, {{a}, {b}}, {3, 1});
    REQUIRE(original.grad().defined());
    CHECK(original.grad().device() == torch::Device("meta"));
    CHECK(original.grad().scalar_type() == torch::kFloat64);
}

TEST_CASE("every parameter is reduced and an old gradient is replaced", "[task_2]") {
    const auto w = torch::zeros({2, 2}, torch::requires_grad());
    const auto bias = torch::zeros({2}, torch::requires_grad());
    bias.mutable_grad() = torch::full({2}, 100.0F);
    const std::vector<std::vector<torch::Tensor>> replicas{
        {with_grad(w, torch::ones({2, 2})), with_grad(bias, torch::ones({2}))},
        {with_grad(w, torch::full({2, 2}, 3.0F)), with_grad(bias, torch::full({2}, -1.0F))}};
    ex::average_gradients({w, bias}, replicas, {1, 1});
    TL_CHECK_TENSOR_CLOSE(w.grad(), torch::full({2, 2}, 2.0F));
    TL_CHECK_TENSOR_CLOSE(bias.grad(), torch::zeros({2}));
}

TEST_CASE("the gradient lands in the original's dtype", "[task_2]") {
    const auto original = torch::zeros({2}, torch::dtype(torch::kFloat64).requires_grad(true));
    const auto a = with_grad(torch::zeros({2}), torch::tensor({1.0F, 1.0F}));
    const auto b = with_grad(torch::zeros({2}), torch::tensor({2.0F, 4.0F}));
    ex::average_gradients({original}, {{a}, {b}}, {3, 1});
    TL_CHECK_TENSOR_CLOSE(original.grad(), torch::tensor({1.25, 1.75}, torch::kFloat64));
}

TEST_CASE("weighted shard gradients equal the whole batch gradient", "[task_2]") {
    torch::manual_seed(3);
    ex::Mlp model(6, 10, 3);
    const auto x = torch::randn({11, 6});
    const auto y = torch::randint(0, 3, {11}, torch::kLong);
    torch::nn::functional::cross_entropy(model->forward(x), y).backward();
    std::vector<torch::Tensor> expected;
    for (const auto& p : model->parameters()) {
        expected.push_back(p.grad().clone());
        p.mutable_grad() = torch::Tensor();
    }
    // Uneven shards (5, 4, 2): a plain mean of the three gradients would be wrong here.
    const std::vector<std::int64_t> sizes{5, 4, 2};
    std::vector<std::vector<torch::Tensor>> replicas;
    std::int64_t start = 0;
    for (const auto rows : sizes) {
        auto replica = std::dynamic_pointer_cast<ex::MlpImpl>(model->clone());
        torch::nn::functional::cross_entropy(replica->forward(x.slice(0, start, start + rows)),
                                             y.slice(0, start, start + rows))
            .backward();
        replicas.push_back(replica->parameters());
        start += rows;
    }
    const auto originals = model->parameters();
    ex::average_gradients(originals, replicas, sizes);
    for (std::size_t i = 0; i < originals.size(); ++i) {
        INFO("parameter " << i);
        TL_CHECK_TENSOR_CLOSE(originals[i].grad(), expected[i], {1e-5, 1e-6});
    }
}

TEST_CASE("mismatched arguments are errors", "[task_1]") {
    const auto original = torch::zeros({2}, torch::requires_grad());
    const auto good = with_grad(original, torch::ones({2}));
    const auto no_grad = original.clone().detach().requires_grad_(true);
    const auto wrong_shape = with_grad(original, torch::ones({3}));
    CHECK_THROWS_AS(ex::average_gradients({original}, {}, {}), std::invalid_argument);
    CHECK_THROWS_AS(ex::average_gradients({original}, {{good}}, {1, 1}), std::invalid_argument);
    CHECK_THROWS_AS(ex::average_gradients({original}, {{good}}, {0}), std::invalid_argument);
    CHECK_THROWS_AS(ex::average_gradients({original}, {{good, good}}, {1}), std::invalid_argument);
    CHECK_THROWS_AS(ex::average_gradients({original}, {{good}, {no_grad}}, {1, 1}),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::average_gradients({original}, {{good}, {wrong_shape}}, {1, 1}),
                    std::invalid_argument);
    CHECK_FALSE(original.grad().defined());
}

TEST_CASE("GPU gradients are reduced onto a CPU original", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    check_reduced_onto(c10::Device(c10::kCPU), c10::Device(torch::kCUDA), c10::Device(c10::kCPU));
}

TEST_CASE("stand-in gradients are reduced onto a CPU original", "[task_2]") {
    check_reduced_onto(c10::Device(c10::kCPU), tl_test::standin::device(0),
                       tl_test::standin::device(1));
}

TEST_CASE("gradients from the CPU and a stand-in device land on another one", "[task_2]") {
    check_reduced_onto(tl_test::standin::device(2), c10::Device(c10::kCPU),
                       tl_test::standin::device(1));
}
