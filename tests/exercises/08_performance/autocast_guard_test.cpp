/// @file autocast_guard_test.cpp
/// @brief Tests of exercise autocast_guard, built against the learner's file and the solution.
///
/// Everything runs on the CPU in bfloat16, the autocast every LibTorch build supports.
#include "autocast_guard.h"

#include <tl_test/tensors.h>

#include <ATen/autocast_mode.h>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace {

bool cpu_autocast_on() { return at::autocast::is_autocast_enabled(c10::DeviceType::CPU); }
c10::ScalarType cpu_autocast_dtype() {
    return at::autocast::get_autocast_dtype(c10::DeviceType::CPU);
}

/// A linear regression, y = x w + b, with fixed data.
struct Regression {
    torch::Tensor x = torch::randn({64, 16});
    torch::Tensor y = torch::matmul(x, torch::linspace(-1.0, 1.0, 16).unsqueeze(1)) + 0.5;
    torch::Tensor w = torch::zeros({16, 1}).requires_grad_(true);
    torch::Tensor b = torch::zeros({1}).requires_grad_(true);
    c10::ScalarType forward_dtype = c10::ScalarType::Undefined;
    bool autocast_on_in_backward = false;

    Regression() {
        // Runs during backward(), on this thread for CPU tensors: sees the autocast state there.
        w.register_hook([this](const torch::Tensor& grad) {
            autocast_on_in_backward = cpu_autocast_on();
            return grad;
        });
    }
    torch::Tensor loss() {
        const auto product = torch::matmul(x, w);  // on autocast's lower-precision list
        forward_dtype = product.scalar_type();
        return torch::mse_loss((product + b).to(torch::kFloat), y);
    }
};

/// The step done by hand, for comparison: the same ops in the same order.
double reference_step(const torch::Tensor& x, const torch::Tensor& y, torch::Tensor& w,
                      torch::Tensor& b, double lr) {
    w = w.detach().requires_grad_(true);
    b = b.detach().requires_grad_(true);
    at::autocast::set_autocast_enabled(c10::DeviceType::CPU, true);
    at::autocast::set_autocast_dtype(c10::DeviceType::CPU, torch::kBFloat16);
    at::autocast::increment_nesting();
    auto loss = torch::mse_loss((torch::matmul(x, w) + b).to(torch::kFloat), y);
    at::autocast::decrement_nesting();
    at::autocast::clear_cache();
    at::autocast::set_autocast_enabled(c10::DeviceType::CPU, false);
    loss.backward();
    const torch::NoGradGuard no_grad;
    w.sub_(w.grad(), lr);
    b.sub_(b.grad(), lr);
    return loss.item<double>();
}

}  // namespace

TEST_CASE("inside the guard a CPU matmul runs in bfloat16, and after it in float32 again",
          "[task_1]") {
    const auto a = torch::randn({8, 8});
    {
        const ex::AutocastGuard guard(c10::DeviceType::CPU, torch::kBFloat16);
        CHECK(cpu_autocast_on());
        CHECK(torch::matmul(a, a).scalar_type() == torch::kBFloat16);
    }
    CHECK_FALSE(cpu_autocast_on());
    CHECK(torch::matmul(a, a).scalar_type() == torch::kFloat);
}

TEST_CASE("guards nest: the inner one restores the outer one's state", "[task_1]") {
    const auto default_dtype = cpu_autocast_dtype();
    {
        const ex::AutocastGuard outer(c10::DeviceType::CPU, torch::kHalf);
        CHECK(cpu_autocast_dtype() == torch::kHalf);
        {
            const ex::AutocastGuard inner(c10::DeviceType::CPU, torch::kBFloat16);
            CHECK(cpu_autocast_dtype() == torch::kBFloat16);
        }
        INFO("after the inner guard: still enabled, in the outer guard's dtype");
        CHECK(cpu_autocast_on());
        CHECK(cpu_autocast_dtype() == torch::kHalf);
    }
    CHECK_FALSE(cpu_autocast_on());
    CHECK(cpu_autocast_dtype() == default_dtype);
}

TEST_CASE("a guard for another device type switches that type's state and leaves the CPU's",
          "[task_1]") {
    // Autocast's state is per device type and lives on the host (a thread-local flag and dtype),
    // so a CUDA guard can be checked without a GPU: it must read, set and restore CUDA's state.
    const auto cuda = c10::DeviceType::CUDA;
    const bool cuda_was_on = at::autocast::is_autocast_enabled(cuda);
    const auto cuda_dtype = at::autocast::get_autocast_dtype(cuda);
    const auto cpu_dtype = cpu_autocast_dtype();
    {
        const ex::AutocastGuard guard(cuda, torch::kBFloat16);
        CHECK(at::autocast::is_autocast_enabled(cuda));
        CHECK(at::autocast::get_autocast_dtype(cuda) == torch::kBFloat16);
        INFO("the CPU's autocast is not this guard's");
        CHECK_FALSE(cpu_autocast_on());
        CHECK(cpu_autocast_dtype() == cpu_dtype);
    }
    CHECK(at::autocast::is_autocast_enabled(cuda) == cuda_was_on);
    CHECK(at::autocast::get_autocast_dtype(cuda) == cuda_dtype);
    CHECK_FALSE(cpu_autocast_on());
}

TEST_CASE("the state is restored when the guarded code throws", "[task_1]") {
    try {
        const ex::AutocastGuard guard(c10::DeviceType::CPU, torch::kBFloat16);
        throw std::runtime_error("boom");
    } catch (const std::runtime_error&) {
    }
    CHECK_FALSE(cpu_autocast_on());
}

TEST_CASE("a weight changed in place between two guards is not read from a stale cast",
          "[task_1]") {
    const auto x = torch::randn({4, 8});
    const auto w = torch::randn({8, 3}).requires_grad_(true);  // a leaf: autocast caches its cast
    torch::Tensor first;
    {
        const ex::AutocastGuard guard(c10::DeviceType::CPU, torch::kBFloat16);
        first = torch::matmul(x, w);
    }
    {
        const torch::NoGradGuard no_grad;
        w.add_(1.0);  // what an optimizer step does
    }
    torch::Tensor second;
    {
        const ex::AutocastGuard guard(c10::DeviceType::CPU, torch::kBFloat16);
        second = torch::matmul(x, w);
    }
    const auto expected = torch::matmul(x.to(torch::kBFloat16), w.detach().to(torch::kBFloat16));
    INFO("the second product must use the updated weight: the outermost guard clears the cache");
    TL_CHECK_TENSOR_CLOSE(second.detach(), expected);
    CHECK_FALSE(torch::allclose(first.detach(), second.detach()));
}

TEST_CASE("the step runs the forward pass in bfloat16 and backward outside autocast", "[task_2]") {
    torch::manual_seed(1);
    Regression r;
    const double loss = ex::autocast_sgd_step(
        {r.w, r.b}, [&] { return r.loss(); }, 0.1, c10::DeviceType::CPU, torch::kBFloat16);
    CHECK(std::isfinite(loss));
    CHECK(r.forward_dtype == torch::kBFloat16);
    INFO("backward() ran while autocast was still on: end the guard first");
    CHECK_FALSE(r.autocast_on_in_backward);
    CHECK_FALSE(cpu_autocast_on());
    CHECK(r.w.scalar_type() == torch::kFloat);
    CHECK(r.w.grad().scalar_type() == torch::kFloat);
}

TEST_CASE("two steps match the same steps done by hand", "[task_2]") {
    torch::manual_seed(2);
    Regression r;
    auto w = r.w.detach().clone();
    auto b = r.b.detach().clone();
    for (int step = 0; step < 2; ++step) {
        INFO("step " << step);
        const double loss = ex::autocast_sgd_step(
            {r.w, r.b}, [&] { return r.loss(); }, 0.05, c10::DeviceType::CPU, torch::kBFloat16);
        const double expected = reference_step(r.x, r.y, w, b, 0.05);
        CHECK(loss == Catch::Approx(expected).epsilon(1e-6));
        TL_CHECK_TENSOR_CLOSE(r.w.detach(), w.detach());
        TL_CHECK_TENSOR_CLOSE(r.b.detach(), b.detach());
    }
}

TEST_CASE("training in bfloat16 keeps a finite loss that falls", "[task_2]") {
    torch::manual_seed(3);
    Regression r;
    double first = 0.0;
    double last = 0.0;
    for (int step = 0; step < 40; ++step) {
        last = ex::autocast_sgd_step(
            {r.w, r.b}, [&] { return r.loss(); }, 0.1, c10::DeviceType::CPU, torch::kBFloat16);
        REQUIRE(std::isfinite(last));
        if (step == 0) {
            first = last;
        }
    }
    CHECK(last < 0.1 * first);
}

TEST_CASE("no parameters, a bad learning rate or a non-scalar loss are errors", "[task_2]") {
    Regression r;
    const auto loss = [&] { return r.loss(); };
    CHECK_THROWS_AS(ex::autocast_sgd_step({}, loss, 0.1, c10::DeviceType::CPU, torch::kBFloat16),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::autocast_sgd_step({r.w}, loss, 0.0, c10::DeviceType::CPU, torch::kBFloat16),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::autocast_sgd_step({r.w}, loss, std::numeric_limits<double>::quiet_NaN(),
                                          c10::DeviceType::CPU, torch::kBFloat16),
                    std::invalid_argument);
    CHECK_THROWS_AS(ex::autocast_sgd_step(
                        {r.w}, [&] { return torch::matmul(r.x, r.w); }, 0.1, c10::DeviceType::CPU,
                        torch::kBFloat16),
                    std::invalid_argument);
    CHECK_FALSE(cpu_autocast_on());
}
