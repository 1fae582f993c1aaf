/// @file detach_running_loss_test.cpp
/// @brief Tests of exercise detach_running_loss, built against the learner's file and the
/// solution.
#include "detach_running_loss.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <stdexcept>

namespace {

// A loss with a real graph behind it: relu(x @ w) squared, averaged.
torch::Tensor make_loss(const torch::Tensor& w, std::int64_t seed) {
    torch::manual_seed(static_cast<std::uint64_t>(seed));
    const auto x = torch::randn({4, 3});
    return torch::relu(x.matmul(w)).pow(2).mean();
}

}  // namespace

TEST_CASE("the total has the sum and no graph", "[task_1]") {
    const auto w = torch::randn({3, 2}).requires_grad_();
    ex::LossMeter meter;
    double expected = 0.0;
    for (int step = 0; step < 3; ++step) {
        const auto loss = make_loss(w, step);
        expected += loss.item<double>();
        meter.add(loss);
    }
    const auto total = meter.total();
    CHECK(meter.count() == 3);
    CHECK_FALSE(total.requires_grad());
    CHECK_FALSE(total.grad_fn());
    CHECK(total.dim() == 0);
    CHECK(total.scalar_type() == torch::kFloat);
    CHECK(total.item<double>() == Catch::Approx(expected).epsilon(1e-6));
}

TEST_CASE("the loss can still be backpropagated after add", "[task_1]") {
    const auto w = torch::randn({3, 2}).requires_grad_();
    const auto loss = make_loss(w, 7);
    ex::LossMeter meter;
    meter.add(loss);
    REQUIRE(loss.requires_grad());
    loss.backward();
    REQUIRE(w.grad().defined());
    // Adding a second loss must not change the first one's value either.
    const auto first = loss.item<double>();
    meter.add(make_loss(w, 8));
    CHECK(loss.item<double>() == first);
}

TEST_CASE("the step's graph and its saved input are freed once the loss goes", "[task_2]") {
    const auto w = torch::randn({3, 2}).requires_grad_();
    ex::LossMeter meter;
    // Watches the input's storage without owning it. matmul's backward node saves the input (to
    // compute w's gradient), so the storage lives exactly as long as the step's graph.
    c10::weak_intrusive_ptr<c10::StorageImpl> input{c10::intrusive_ptr<c10::StorageImpl>()};
    {
        const auto x = torch::randn({4, 3});
        input = x.storage().getWeakStorageImpl();
        meter.add(torch::relu(x.matmul(w)).pow(2).mean());
    }  // the step is over: only the meter could keep its graph, and so x, alive now
    CHECK(input.expired());
    CHECK(meter.count() == 1);
}

TEST_CASE("on a stand-in device the meter holds no step's memory", "[task_2]") {
    // The stand-in accelerator (tl_test/standin.h) counts the bytes each of its devices holds, as
    // CUDA's allocator does: after five steps of a 1 MiB input, what the device still holds must
    // not grow with the steps (a kept graph keeps every step's input alive).
    constexpr int kIndex = 4;
    const auto on_device = torch::TensorOptions().device(tl_test::standin::device(kIndex));
    const auto w = torch::randn({256, 2}, on_device).requires_grad_();
    ex::LossMeter meter;
    meter.add(torch::relu(torch::randn({1024, 256}, on_device).matmul(w)).pow(2).mean());
    const auto after_one = tl_test::standin::memory_stats(kIndex).allocated;
    for (int step = 0; step < 4; ++step) {
        const auto x = torch::randn({1024, 256}, on_device);  // 1 MiB of float32
        meter.add(torch::relu(x.matmul(w)).pow(2).mean());
    }
    const auto after_five = tl_test::standin::memory_stats(kIndex).allocated;
    INFO("bytes held on standin:" << kIndex << " after one step " << after_one << ", after five "
                                  << after_five);
    CHECK(after_five - after_one < 1024 * 256 * 4);
    CHECK(meter.total().device() == on_device.device());
}

TEST_CASE("the mean is the total over the count", "[task_2]") {
    ex::LossMeter meter;
    meter.add(torch::tensor(1.0f));
    meter.add(torch::tensor({2.0f}));  // one element, one dimension: allowed
    meter.add(torch::tensor(6.0f));
    CHECK(meter.mean() == Catch::Approx(3.0));
    TL_CHECK_TENSOR_CLOSE(meter.total(), torch::tensor(9.0f));
}

TEST_CASE("the first loss is not modified by later adds", "[task_2]") {
    const auto first = torch::tensor(1.5f);
    ex::LossMeter meter;
    meter.add(first);
    meter.add(torch::tensor(2.0f));
    TL_CHECK_TENSOR_CLOSE(first, torch::tensor(1.5f));
    TL_CHECK_TENSOR_CLOSE(meter.total(), torch::tensor(3.5f));
}

TEST_CASE("the total stays on the loss's device, no copy to the host per step", "[task_2]") {
    // meta holds shapes and no data, on every machine: reading a meta loss's value (item(),
    // to the CPU) throws, as a copy to the host would cost a GPU a synchronisation.
    const auto w = torch::randn({3, 2}, torch::Device("meta")).requires_grad_();
    const auto x = torch::randn({4, 3}, torch::Device("meta"));
    ex::LossMeter meter;
    for (int step = 0; step < 3; ++step) {
        REQUIRE_NOTHROW(meter.add((x.matmul(w) - 1.0).pow(2).mean()));
    }
    const auto total = meter.total();
    CHECK(total.device() == torch::Device("meta"));
    CHECK(total.dim() == 0);
    CHECK_FALSE(total.requires_grad());
    CHECK(meter.count() == 3);
}

TEST_CASE("bad losses and an empty meter are errors", "[task_3]") {
    ex::LossMeter meter;
    CHECK_THROWS_AS(meter.add(torch::Tensor()), std::invalid_argument);
    CHECK_THROWS_AS(meter.add(torch::ones({3})), std::invalid_argument);
    CHECK_THROWS_AS(meter.total(), std::logic_error);
    CHECK_THROWS_AS(meter.mean(), std::logic_error);
    CHECK(meter.count() == 0);
}

TEST_CASE("the mean of losses on a stand-in device is read on the host", "[task_2]") {
    // A device tensor's memory is not the host's to read (the stand-in's is not either): its
    // value comes to the host through item() or cpu(), not through its data pointer.
    const auto on_device = torch::TensorOptions().device(tl_test::standin::device(2));
    ex::LossMeter meter;
    meter.add(torch::tensor(1.0F, on_device));
    meter.add(torch::tensor(2.0F, on_device));
    meter.add(torch::tensor(6.0F, on_device));
    CHECK(meter.mean() == Catch::Approx(3.0));
    CHECK(meter.total().device() == tl_test::standin::device(2));
}
