/// @file mixed_precision.cpp
/// @brief Lesson 08, sections 5 and 6: mixed precision from C++ — an RAII autocast guard, what
/// it changes in a matmul's dtype, error and speed — and loss scaling for float16 gradients, on
/// the two ATen ops GradScaler itself uses.
#include <torchlings/lesson.h>

#include <ATen/autocast_mode.h>
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "lesson08.h"

// The lesson's own pieces, not an API: kept out of the generated documentation.
/** @cond */
namespace lesson08 {

using torchlings::fixed;
using torchlings::print_field;
using torchlings::print_section;
using torchlings::scientific;

namespace {

// --- 5. Mixed precision with autocast ---
/// `with torch.autocast(device_type, dtype):` for C++: sets, and on destruction restores, the
/// autocast state of one device type (the exercise autocast_guard builds the same guard).
class AutocastGuard {
  public:
    AutocastGuard(c10::DeviceType type, c10::ScalarType dtype)
        : type_(type),
          was_enabled_(at::autocast::is_autocast_enabled(type)),
          old_dtype_(at::autocast::get_autocast_dtype(type)) {
        at::autocast::set_autocast_enabled(type, true);
        at::autocast::set_autocast_dtype(type, dtype);
        at::autocast::increment_nesting();
    }
    ~AutocastGuard() {
        if (at::autocast::decrement_nesting() == 0) {
            at::autocast::clear_cache();  // casted weights go stale once an optimizer steps
        }
        at::autocast::set_autocast_enabled(type_, was_enabled_);
        at::autocast::set_autocast_dtype(type_, old_dtype_);
    }
    AutocastGuard(const AutocastGuard&) = delete;
    AutocastGuard& operator=(const AutocastGuard&) = delete;
    AutocastGuard(AutocastGuard&&) = delete;
    AutocastGuard& operator=(AutocastGuard&&) = delete;

  private:
    c10::DeviceType type_;
    bool was_enabled_;
    c10::ScalarType old_dtype_;
};

/// The low-precision dtype autocast uses on this device: bfloat16 on the CPU, float16 on CUDA.
c10::ScalarType autocast_dtype(const c10::Device& device) {
    return device.is_cuda() ? torch::kHalf : torch::kBFloat16;
}

double train_regression(const c10::Device& device, bool autocast, int steps) {
    torch::manual_seed(5);
    const auto x = torch::randn({512, 64}, device);
    const auto y = torch::matmul(x, torch::randn({64, 1}, device)) + 0.1;
    const auto w = torch::zeros({64, 1}, device).requires_grad_(true);
    const auto b = torch::zeros({1}, device).requires_grad_(true);
    double loss_value = 0.0;
    for (int step = 0; step < steps; ++step) {
        w.mutable_grad() = torch::Tensor();
        b.mutable_grad() = torch::Tensor();
        torch::Tensor loss;
        {
            std::optional<AutocastGuard> guard;
            if (autocast) {
                guard.emplace(device.type(), autocast_dtype(device));
            }
            loss = torch::mse_loss((torch::matmul(x, w) + b).to(torch::kFloat), y);
        }
        loss.backward();  // outside autocast
        const torch::NoGradGuard no_grad;
        w.sub_(w.grad(), 0.05);
        b.sub_(b.grad(), 0.05);
        loss_value = loss.item<double>();
    }
    return loss_value;
}

}  // namespace

void show_autocast(const c10::Device& device, std::vector<Record>& records) {
    print_section("5. Mixed precision with autocast");
    const auto dtype = autocast_dtype(device);
    constexpr std::int64_t n = 512;
    const auto a = torch::randn({n, n}, device);
    const auto b = torch::randn({n, n}, device);
    const auto exact = torch::matmul(a.to(torch::kDouble), b.to(torch::kDouble));
    const auto relative_error = [&](const torch::Tensor& c) {
        return ((c.to(torch::kDouble) - exact).abs().max() / exact.abs().max()).item<double>();
    };
    torch::Tensor low;
    {
        const AutocastGuard guard(device.type(), dtype);
        low = torch::matmul(a, b);
    }
    print_field("Autocast dtype here", std::string(c10::toString(dtype)));
    print_field("matmul output dtype", std::string("inside the guard ") +
                                           c10::toString(low.scalar_type()) + ", after it " +
                                           c10::toString(torch::matmul(a, b).scalar_type()));
    print_field("Max error vs float64",
                "float32 " + scientific(relative_error(torch::matmul(a, b))) + ", autocast " +
                    scientific(relative_error(low)) + " (relative to the largest value)");
    // Timed at 256: without bfloat16 units a CPU emulates it, and 512 takes most of a second.
    const auto a_small = a.slice(0, 0, 256).slice(1, 0, 256).contiguous();
    const auto b_small = b.slice(0, 0, 256).slice(1, 0, 256).contiguous();
    const auto full = time_op(device, [&] { (void)torch::matmul(a_small, b_small); });
    const auto lowered = time_op(device, [&] {
        const AutocastGuard guard(device.type(), dtype);
        (void)torch::matmul(a_small, b_small);
    });
    records.push_back({"matmul_float32", 256, device.str(), full, false});
    records.push_back({"matmul_autocast", 256, device.str(), lowered, false});
    print_field("matmul 256, float32", ms(full.median_ms));
    const double ratio = full.median_ms / lowered.median_ms;
    print_field("matmul 256, autocast",
                ms(lowered.median_ms) + " (" +
                    (ratio >= 1 ? fixed(ratio, 1) + "x faster" : fixed(1 / ratio, 1) + "x slower") +
                    " than float32)");
    print_field("CPU bf16 instructions",
                "avx512_bf16 " + cpu_flag("avx512_bf16") + ", amx_bf16 " + cpu_flag("amx_bf16"));
    print_field("Regression, 60 steps",
                "final loss float32 " + scientific(train_regression(device, false, 60)) +
                    ", autocast " + scientific(train_regression(device, true, 60)));
    std::cout << "- Lower precision pays where the hardware has units for it (tensor cores on "
                 "GPUs, AMX or AVX-512 BF16 on CPUs); without them the casts are extra work.\n"
              << "- bfloat16 keeps float32's range with 8 significant bits: errors near 1e-3 "
                 "relative, fine for training, not for a checksum.\n";
}

// --- 6. Loss scaling for float16 ---
void show_loss_scaling() {
    print_section("6. Loss scaling for float16 gradients");
    // float32 master weight; the forward pass in float16, as under CUDA autocast.
    const auto gradient = [](double scale) {
        const auto w = torch::ones({1}).requires_grad_(true);
        const auto loss = ((w.to(torch::kHalf) * 1e-4) * 1e-4).sum().to(torch::kFloat) * scale;
        loss.backward();
        return w.grad().item<double>() / scale;
    };
    print_field("True gradient", "1.0e-08 (float16 rounds values below 2^-25, about 3.0e-8, to 0)");
    print_field("Without scaling", scientific(gradient(1.0)));
    print_field("Scaled by 1024, unscaled", scientific(gradient(1024.0)));

    // The scaler's two ATen ops, as GradScaler uses them (the exercise loss_scaler wraps them).
    auto scale = torch::full({1}, 65536.0F);
    auto growth_tracker = torch::zeros({1}, torch::kInt);
    auto found_inf = torch::zeros({1});
    std::vector<torch::Tensor> grads{torch::tensor({1.0F, std::numeric_limits<float>::infinity()})};
    at::_amp_foreach_non_finite_check_and_unscale_(grads, found_inf, scale.reciprocal());
    const double before = scale.item<double>();
    at::_amp_update_scale_(scale, growth_tracker, found_inf, 2.0, 0.5, 2000);
    print_field("A step with an overflow",
                std::string(found_inf.item<float>() > 0 ? "skipped" : "taken") + ", scale " +
                    fixed(before, 0) + " -> " + fixed(scale.item<double>(), 0));
    std::cout << "- bfloat16 has float32's exponent range and needs no scaling; float16 does.\n";
}

}  // namespace lesson08
/** @endcond */
