/// @file replicate_model_test.cpp
/// @brief Tests of exercise replicate_model, built against the learner's file and the solution.
#include "replicate_model.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <stdexcept>

namespace {

ex::Mlp make_model() {
    torch::manual_seed(7);
    return ex::Mlp(5, 8, 3);
}

// Every parameter of `replica` equals the original's, on `device`, in a storage of its own.
void check_is_replica(const ex::Mlp& original, const ex::Mlp& replica, const c10::Device& device) {
    const auto mine = original->named_parameters();
    const auto theirs = replica->named_parameters();
    REQUIRE(theirs.size() == mine.size());
    for (const auto& item : mine) {
        INFO("parameter " << item.key());
        const auto* copy = theirs.find(item.key());
        REQUIRE(copy != nullptr);
        CHECK(copy->device() == device);
        CHECK(copy->requires_grad());
        CHECK_FALSE(copy->grad().defined());
        CHECK_FALSE(copy->is_alias_of(item.value()));
        TL_CHECK_TENSOR_CLOSE(copy->to(item.value().device()), item.value());
    }
}

// Replicas for {first, cpu, second} live there, each in memory of its own, and a refresh copies
// into the replica where it is. Run on a GPU and on the stand-in accelerator (tl_test/standin.h),
// whose devices are not the CPU and not each other on any machine.
void check_replicas_on(const c10::Device& first, const c10::Device& second) {
    auto model = make_model();
    auto replicas = ex::replicate_model(model, {first, c10::Device("cpu"), second});
    REQUIRE(replicas.size() == 3);
    check_is_replica(model, replicas[0], first);
    check_is_replica(model, replicas[1], c10::Device("cpu"));
    check_is_replica(model, replicas[2], second);
    ex::copy_parameters(model, replicas[2]);
    CHECK(replicas[2]->w1.device() == second);
    TL_CHECK_TENSOR_CLOSE(replicas[2]->w1.cpu(), model->w1);
}

}  // namespace

TEST_CASE("every device gets a replica with the same values", "[task_1]") {
    auto model = make_model();
    const std::vector<c10::Device> devices(3, c10::Device("cpu"));
    auto replicas = ex::replicate_model(model, devices);
    REQUIRE(replicas.size() == 3);
    for (const auto& replica : replicas) {
        REQUIRE(replica.ptr() != nullptr);
        CHECK(replica.ptr() != model.ptr());
        check_is_replica(model, replica, devices.front());
    }
}

TEST_CASE("replicas on the same device do not share storage", "[task_1]") {
    auto model = make_model();
    auto replicas = ex::replicate_model(model, {c10::Device("cpu"), c10::Device("cpu")});
    REQUIRE(replicas.size() == 2);
    CHECK_FALSE(replicas[0]->w1.is_alias_of(replicas[1]->w1));
    {
        const torch::NoGradGuard no_grad;
        replicas[0]->w1.add_(1.0);
    }
    TL_CHECK_TENSOR_CLOSE(replicas[1]->w1, model->w1);
    TL_CHECK_TENSOR_CLOSE(replicas[0]->w1, model->w1 + 1.0);
}

TEST_CASE("a replica computes what the original computes", "[task_1]") {
    auto model = make_model();
    auto replicas = ex::replicate_model(model, {c10::Device("cpu")});
    REQUIRE(replicas.size() == 1);
    const auto x = torch::randn({4, 5});
    TL_CHECK_TENSOR_CLOSE(replicas[0]->forward(x), model->forward(x));
}

TEST_CASE("a replica keeps the original's mode and its gradients stay its own", "[task_1]") {
    auto model = make_model();
    model->eval();
    auto replicas = ex::replicate_model(model, {c10::Device("cpu")});
    REQUIRE(replicas.size() == 1);
    CHECK_FALSE(replicas[0]->is_training());
    replicas[0]->forward(torch::randn({4, 5})).sum().backward();
    CHECK(replicas[0]->w1.grad().defined());
    CHECK_FALSE(model->w1.grad().defined());
}

TEST_CASE("no device is an error", "[task_1]") {
    CHECK_THROWS_AS(ex::replicate_model(make_model(), {}), std::invalid_argument);
}

TEST_CASE("copy_parameters refreshes a replica in place", "[task_2]") {
    auto model = make_model();
    torch::manual_seed(99);
    const ex::Mlp stale(5, 8, 3);
    const auto w1_before = stale->w1;
    const auto* storage_before = stale->w1.const_data_ptr();
    ex::copy_parameters(model, stale);
    for (const auto& item : model->named_parameters()) {
        INFO("parameter " << item.key());
        TL_CHECK_TENSOR_CLOSE(*stale->named_parameters().find(item.key()), item.value());
    }
    CHECK(stale->w1.is_same(w1_before));
    CHECK(stale->w1.const_data_ptr() == storage_before);
    CHECK_FALSE(stale->w1.is_alias_of(model->w1));
    CHECK(stale->w1.requires_grad());
    CHECK(stale->w1.is_leaf());
}

TEST_CASE("copy_parameters refuses a model of another shape", "[task_2]") {
    const ex::Mlp small(5, 8, 3);
    const ex::Mlp wide(5, 16, 3);
    CHECK_THROWS_AS(ex::copy_parameters(small, wide), std::invalid_argument);
}

TEST_CASE("replicas on a GPU live on that GPU", "[gpu][task_1]") {
    TL_REQUIRE_CUDA();
    const c10::Device gpu("cuda:0");
    check_replicas_on(gpu, gpu);
}

TEST_CASE("replicas on stand-in devices live on their own device", "[task_1]") {
    check_replicas_on(tl_test::standin::device(0), tl_test::standin::device(1));
}

TEST_CASE("copy_parameters refuses a target with a parameter the source lacks", "[task_2]") {
    // Every source name is found in the target, but the target has one more: it would keep a
    // value of its own, and the two models would not be the same model.
    const ex::Mlp source(5, 8, 3);
    ex::Mlp target(5, 8, 3);
    target->register_parameter("extra", torch::zeros({3}));
    CHECK_THROWS_AS(ex::copy_parameters(source, target), std::invalid_argument);
}

TEST_CASE("copy_parameters refuses a shape that copy_ would broadcast", "[task_2]") {
    // One class against three: w2 [1, 8] and b2 [1] would broadcast into [3, 8] and [3].
    const ex::Mlp one_class(5, 8, 1);
    const ex::Mlp three_classes(5, 8, 3);
    CHECK_THROWS_AS(ex::copy_parameters(one_class, three_classes), std::invalid_argument);
}
