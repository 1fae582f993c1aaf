/// @file standin_test.cpp
/// @brief Unit tests of the stand-in accelerator (tests/support, tl_test/standin.h): what the
/// exercise tests rely on when they run their device cases without a GPU.
#include <c10/core/DeviceGuard.h>
#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <string>

namespace standin = tl_test::standin;

namespace {

torch::TensorOptions on(const c10::Device& d) { return torch::TensorOptions().device(d); }

}  // namespace

// First in the file: ctest runs each case in a process of its own, and a run of the whole program
// takes the cases in the order they are declared, so in both this case sees the process before any
// stand-in device was asked for.
TEST_CASE("the stand-in is named when first used and not when the program starts", "[standin]") {
    // Registered at start, it would be LibTorch's accelerator in every test program, and a GPU
    // case's backward pass would fail there (tl_test/standin.h).
    CHECK_FALSE(c10::is_privateuse1_backend_registered());
    CHECK(c10::get_privateuse1_backend() == "privateuseone");
    standin::device(0);
    CHECK(c10::is_privateuse1_backend_registered());
    CHECK(c10::get_privateuse1_backend() == "standin");
}

TEST_CASE("stand-in devices have a name of their own and parse back", "[standin]") {
    const auto d = standin::device(1);
    CHECK(d.type() == c10::DeviceType::PrivateUse1);
    CHECK(d.str() == "standin:1");
    CHECK(c10::Device("standin:1") == d);
    CHECK_FALSE(d.is_cpu());
    CHECK_FALSE(d.is_cuda());
    CHECK_THROWS_AS(standin::device(standin::kDevices), std::out_of_range);
}

TEST_CASE("a tensor is made on a stand-in device", "[standin]") {
    const auto d = standin::device(2);
    const auto t = torch::full({2, 3}, 1.5, on(d).dtype(torch::kFloat64));
    CHECK(t.device() == d);
    CHECK(t.dtype() == torch::kFloat64);
    const auto e = torch::empty_strided({2, 3}, {1, 2}, on(d));
    CHECK(e.device() == d);
    CHECK(e.strides() == c10::IntArrayRef({1, 2}));
    TL_CHECK_TENSOR_CLOSE(t.cpu(), torch::full({2, 3}, 1.5, torch::kFloat64));
}

TEST_CASE("a device without an index is the current stand-in device", "[standin]") {
    const c10::DeviceGuard guard(standin::device(3));
    CHECK(standin::current_index() == 3);
    const auto t = torch::zeros({2}, on(c10::Device(standin::kType)));
    CHECK(t.device() == standin::device(3));
}

TEST_CASE("copies go to the stand-in and back", "[standin]") {
    const auto host = torch::arange(12, torch::kFloat32).view({3, 4});
    const auto there = host.to(standin::device(0));
    CHECK(there.device() == standin::device(0));
    CHECK(there.data_ptr() != host.data_ptr());
    const auto back = there.t().contiguous().cpu();  // strided, through a view
    CHECK(back.is_cpu());
    TL_CHECK_TENSOR_CLOSE(back, host.t().contiguous());
    // copy_ into an existing tensor, both ways, with a dtype change
    auto dst = torch::zeros({3, 4}, on(standin::device(0)).dtype(torch::kFloat64));
    dst.copy_(host);
    TL_CHECK_TENSOR_CLOSE(dst.cpu(), host.to(torch::kFloat64));
    auto into_host = torch::zeros({3, 4});
    into_host.copy_(there);
    TL_CHECK_TENSOR_CLOSE(into_host, host);
}

TEST_CASE("a stand-in tensor's memory is not the host's to read", "[standin]") {
    // As on a GPU, reading the device's memory from the host is not reading its values.
    const auto host = torch::tensor({1.5F, -2.0F, 0.0F});
    const auto there = host.to(standin::device(1));
    const auto* raw = static_cast<const float*>(there.const_data_ptr());
    CHECK(raw[0] != 1.5F);
    CHECK(raw[2] != 0.0F);
    // Through the API every value is exact, whatever the dtype.
    for (const auto dtype : {torch::kBool, torch::kUInt8, torch::kFloat16, torch::kFloat64,
                             torch::kInt64, torch::kComplexDouble}) {
        INFO("dtype " << dtype);
        const auto t = torch::arange(4).remainder(2).to(dtype);
        CHECK(t.to(standin::device(2)).to(standin::device(3)).cpu().equal(t));
        CHECK((t.to(standin::device(2)) == t.to(standin::device(2))).all().item<bool>());
    }
}

TEST_CASE("copies go between stand-in devices", "[standin]") {
    const auto a = torch::arange(6, on(standin::device(0)).dtype(torch::kFloat32));
    const auto b = a.to(standin::device(1));
    CHECK(b.device() == standin::device(1));
    CHECK(b.data_ptr() != a.data_ptr());
    TL_CHECK_TENSOR_CLOSE(b.cpu(), torch::arange(6, torch::kFloat32));
    // Already there: to() returns the same tensor, as it does on CUDA.
    CHECK(a.to(standin::device(0)).data_ptr() == a.data_ptr());
}

TEST_CASE("operators run on a stand-in device and keep results there", "[standin]") {
    const auto d = standin::device(1);
    auto x = torch::tensor({1.0F, -2.0F, 3.0F}, on(d)).requires_grad_();
    const auto y = (x * x + 1).sum();
    CHECK(y.device() == d);
    CHECK(y.item<float>() == Catch::Approx(17.0));
    y.backward();
    CHECK(x.grad().device() == d);
    TL_CHECK_TENSOR_CLOSE(x.grad().cpu(), torch::tensor({2.0F, -4.0F, 6.0F}));
    // A 0-dim CPU tensor comes along as a scalar, as on CUDA.
    CHECK((x.detach() * torch::tensor(2.0F)).device() == d);
}

TEST_CASE("a model moves to a stand-in device and trains there", "[standin]") {
    const auto d = standin::device(2);
    torch::nn::Linear layer(3, 2);
    layer->to(d);
    for (const auto& p : layer->parameters()) {
        CHECK(p.device() == d);
    }
    torch::optim::SGD sgd(layer->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
    layer->forward(torch::randn({4, 3}, on(d))).square().mean().backward();
    REQUIRE_NOTHROW(sgd.step());
    CHECK(layer->weight.device() == d);
}

TEST_CASE("an operator on two devices is refused with CUDA's words", "[standin]") {
    const auto on_standin = torch::ones({2}, on(standin::device(0)));
    const auto on_cpu = torch::ones({2});
    const auto on_other = torch::ones({2}, on(standin::device(1)));
    CHECK_THROWS_WITH(on_standin + on_cpu,
                      Catch::Matchers::StartsWith(
                          "Expected all tensors to be on the same device, but found at least two "
                          "devices, standin:0 and cpu!"));
    CHECK_THROWS_WITH(torch::mul(on_standin, on_other),
                      Catch::Matchers::StartsWith("Expected all tensors to be on the same device"));
    CHECK_THROWS_WITH(torch::cat({on_standin, on_other}),
                      Catch::Matchers::StartsWith("Expected all tensors to be on the same device"));
    torch::nn::Linear layer(2, 1);  // on the CPU
    CHECK_THROWS_WITH(layer->forward(on_standin.view({1, 2})),
                      Catch::Matchers::StartsWith("Expected all tensors to be on the same device"));
}

TEST_CASE("two stand-in devices are distinct", "[standin]") {
    const auto a = standin::device(0);
    const auto b = standin::device(1);
    CHECK(a != b);
    CHECK(a.type() == b.type());
    const auto ta = torch::zeros({1}, on(a));
    const auto tb = torch::zeros({1}, on(b));
    CHECK(ta.device() != tb.device());
    CHECK(ta.to(b).device() == b);
}

TEST_CASE("the current stand-in device is switched and restored by a guard", "[standin]") {
    standin::set_current_index(5);
    {
        const c10::DeviceGuard guard(standin::device(2));
        CHECK(standin::current_index() == 2);
    }
    CHECK(standin::current_index() == 5);
    standin::set_current_index(0);
}

TEST_CASE("the allocator counts bytes held and the peak per device", "[standin]") {
    constexpr int kIndex = 6;
    const auto d = standin::device(kIndex);
    standin::reset_peak(kIndex);
    const auto before = standin::memory_stats(kIndex);
    {
        const auto t = torch::empty({256}, on(d).dtype(torch::kFloat32));  // 1 KiB
        const auto during = standin::memory_stats(kIndex);
        CHECK(during.allocated - before.allocated == 1024);
        CHECK(during.peak >= before.allocated + 1024);
        CHECK(during.allocations == before.allocations + 1);
    }
    const auto after = standin::memory_stats(kIndex);
    CHECK(after.allocated == before.allocated);
    CHECK(after.peak == before.allocated + 1024);
    standin::reset_peak(kIndex);
    CHECK(standin::memory_stats(kIndex).peak == after.allocated);
    // Another device's bytes are not this one's.
    const auto elsewhere = torch::empty({1024}, on(standin::device(kIndex + 1)));
    CHECK(standin::memory_stats(kIndex).allocated == after.allocated);
}
