/// @file broadcast_parameters_test.cpp
/// @brief Tests of exercise broadcast_parameters, built against the learner's file and the
/// solution. Ranks are threads of this process (ranks.h).
#include "broadcast_parameters.h"

#include "ranks.h"

#include <tl_test/tensors.h>

namespace {

/// Rank r's parameters before the broadcast: a (2, 3) weight and a (3) bias, all equal to r + 1.
std::vector<at::Tensor> parameters_of(int rank) {
    const auto value = static_cast<float>(rank + 1);
    return {torch::full({2, 3}, value).requires_grad_(true),
            torch::full({3}, value).requires_grad_(true)};
}

struct Seen {
    std::vector<at::Tensor> values;
    bool leaves = false;
};

Seen broadcast_on(int rank, c10d::ProcessGroup& group, std::vector<at::Tensor> parameters) {
    const auto before = parameters;
    ex::broadcast_parameters(parameters, group);
    Seen seen;
    seen.leaves = true;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        // The same tensors, still leaves that require grad: optimizers hold these very tensors.
        seen.leaves = seen.leaves && parameters[i].is_same(before[i]) && parameters[i].is_leaf() &&
                      parameters[i].requires_grad();
        seen.values.push_back(parameters[i].detach().clone());
    }
    (void)rank;
    return seen;
}

}  // namespace

TEST_CASE("every rank ends with rank 0's values", "[task_2]") {
    const auto seen = ranks::run<Seen>(3, [](int rank, c10d::ProcessGroup& group) {
        return broadcast_on(rank, group, parameters_of(rank));
    });
    for (std::size_t rank = 0; rank < seen.size(); ++rank) {
        INFO("rank " << rank);
        TL_CHECK_TENSOR_CLOSE(seen[rank].values[0], torch::ones({2, 3}));
        TL_CHECK_TENSOR_CLOSE(seen[rank].values[1], torch::ones({3}));
    }
}

TEST_CASE("each parameter gets its own values back, in its own shape", "[task_2]") {
    const auto seen = ranks::run<Seen>(2, [](int rank, c10d::ProcessGroup& group) {
        std::vector<at::Tensor> parameters{
            torch::arange(6, torch::kFloat32).reshape({2, 3}).add(10 * rank).requires_grad_(true),
            torch::arange(6, 10, torch::kFloat32).add(10 * rank).requires_grad_(true)};
        return broadcast_on(rank, group, parameters);
    });
    TL_CHECK_TENSOR_CLOSE(seen[1].values[0], torch::arange(6, torch::kFloat32).reshape({2, 3}));
    TL_CHECK_TENSOR_CLOSE(seen[1].values[1], torch::arange(6, 10, torch::kFloat32));
}

TEST_CASE("the parameters stay the same leaf tensors that require grad", "[task_2]") {
    const auto seen = ranks::run<Seen>(2, [](int rank, c10d::ProcessGroup& group) {
        return broadcast_on(rank, group, parameters_of(rank));
    });
    CHECK(seen[0].leaves);
    CHECK(seen[1].leaves);
}
