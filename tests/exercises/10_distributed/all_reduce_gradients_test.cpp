/// @file all_reduce_gradients_test.cpp
/// @brief Tests of exercise all_reduce_gradients, built against the learner's file and the
/// solution. Ranks are threads of this process (ranks.h).
#include "all_reduce_gradients.h"

#include "ranks.h"

#include <tl_test/tensors.h>

#include <stdexcept>

namespace {

at::Tensor with_grad(const at::Tensor& value, const at::Tensor& grad) {
    auto parameter = value.detach().clone().requires_grad_(true);
    parameter.mutable_grad() = grad.clone();
    return parameter;
}

using Grads = std::vector<at::Tensor>;

}  // namespace

TEST_CASE("each gradient becomes its mean over the ranks", "[task_3]") {
    // Rank r's gradients: weight all r, bias all 10 * r. Means over 0, 1, 2: 1 and 10.
    const auto grads = ranks::run<Grads>(3, [](int rank, c10d::ProcessGroup& group) {
        const auto r = static_cast<float>(rank);
        std::vector<at::Tensor> parameters{with_grad(torch::zeros({2, 2}), torch::full({2, 2}, r)),
                                           with_grad(torch::zeros({3}), torch::full({3}, 10 * r))};
        ex::all_reduce_gradients(parameters, group);
        return Grads{parameters[0].grad().clone(), parameters[1].grad().clone()};
    });
    for (std::size_t rank = 0; rank < grads.size(); ++rank) {
        INFO("rank " << rank);
        TL_CHECK_TENSOR_CLOSE(grads[rank][0], torch::ones({2, 2}));
        TL_CHECK_TENSOR_CLOSE(grads[rank][1], torch::full({3}, 10.0F));
    }
}

TEST_CASE("each element keeps its place in its own parameter", "[task_3]") {
    const auto grads = ranks::run<Grads>(2, [](int rank, c10d::ProcessGroup& group) {
        const auto sign = rank == 0 ? 1.0 : 3.0;
        std::vector<at::Tensor> parameters{
            with_grad(torch::zeros({3}), torch::arange(3, torch::kFloat32) * sign),
            with_grad(torch::zeros({2}), torch::arange(3, 5, torch::kFloat32) * sign)};
        ex::all_reduce_gradients(parameters, group);
        return Grads{parameters[0].grad().clone(), parameters[1].grad().clone()};
    });
    TL_CHECK_TENSOR_CLOSE(grads[0][0], torch::tensor({0.0F, 2.0F, 4.0F}));
    TL_CHECK_TENSOR_CLOSE(grads[1][1], torch::tensor({6.0F, 8.0F}));
}

TEST_CASE("two ranks on halves of a batch get the whole batch's gradient", "[task_3]") {
    torch::manual_seed(5);
    const auto x = torch::randn({8, 4});
    const auto y = torch::randn({8, 1});
    const auto w0 = torch::randn({1, 4});
    const auto whole = w0.clone().requires_grad_(true);
    torch::mse_loss(torch::matmul(x, whole.t()), y).backward();
    const auto grads = ranks::run<Grads>(2, [&](int rank, c10d::ProcessGroup& group) {
        const auto w = w0.clone().requires_grad_(true);
        const auto rows = torch::arange(4 * rank, 4 * rank + 4);
        torch::mse_loss(torch::matmul(x.index_select(0, rows), w.t()), y.index_select(0, rows))
            .backward();
        std::vector<at::Tensor> parameters{w};
        ex::all_reduce_gradients(parameters, group);
        return Grads{w.grad().clone()};
    });
    TL_CHECK_TENSOR_CLOSE(grads[0][0], whole.grad());
    TL_CHECK_TENSOR_CLOSE(grads[1][0], whole.grad());
}

TEST_CASE("a parameter without a gradient is refused", "[task_3]") {
    const auto outcome = ranks::run<int>(2, [](int, c10d::ProcessGroup& group) {
        std::vector<at::Tensor> parameters{with_grad(torch::zeros({2}), torch::ones({2})),
                                           torch::zeros({2}).requires_grad_(true)};
        try {
            ex::all_reduce_gradients(parameters, group);
        } catch (const std::invalid_argument&) {
            return 1;
        }
        return 0;
    });
    CHECK(outcome == std::vector<int>{1, 1});
}
