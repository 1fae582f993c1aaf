/// @file kernels_test.cpp
/// @brief The course's kernels against ATen: CPU twins everywhere, CUDA kernels on a GPU.
#include <torchlings/kernels.h>
#include <torchlings/kernels/bodies.h>

#include <tl_test/tensors.h>

#include <vector>

namespace {
// Sizes around the block and chunk boundaries, where indexing bugs live.
const std::vector<int64_t> kSizes = {0, 1, 7, 8, 9, 31, 32, 33, 255, 256, 257, 1000, 4099, 1 << 20};
const tl_test::Tolerance kSumTolerance{1e-4, 1e-3};
}  // namespace

TEST_CASE("saxpy body is guarded with one element per thread", "[kernels]") {
    std::vector<float> x = {1, 2, 3};
    std::vector<float> y = {10, 20, 30};
    std::vector<float> out = {-1, -1, -1, -1};  // one slot past n must stay untouched
    for (int64_t i = 0; i < 4; ++i) {           // a grid one thread larger than n
        torchlings::kernels::saxpy_body(i, 2.0F, x.data(), y.data(), out.data(), 3);
    }
    CHECK(out == std::vector<float>{12, 24, 36, -1});
}

TEST_CASE("saxpy CPU twin matches ATen at every size", "[kernels]") {
    torch::manual_seed(0);
    for (const int64_t n : kSizes) {
        INFO("n = " << n);
        const auto x = torch::randn({n});
        const auto y = torch::randn({n});
        TL_CHECK_TENSOR_CLOSE(torchlings::saxpy(1.5F, x, y), torch::add(y, x, 1.5));
    }
}

TEST_CASE("saxpy keeps the shape of multi-dimensional inputs", "[kernels]") {
    const auto x = torch::ones({3, 4});
    const auto y = torch::full({3, 4}, 2.0);
    TL_CHECK_TENSOR_CLOSE(torchlings::saxpy(3.0F, x, y), torch::full({3, 4}, 5.0));
}

TEST_CASE("saxpy rejects bad arguments with what was expected", "[kernels]") {
    const auto x = torch::ones({4});
    CHECK_THROWS_WITH(torchlings::saxpy(1.0F, x.to(torch::kDouble), x),
                      Catch::Contains("expected x to be float32"));
    CHECK_THROWS_WITH(torchlings::saxpy(1.0F, x, torch::ones({5})),
                      Catch::Contains("expected x and y of one shape"));
    const auto strided = torch::ones({4, 4}).t();
    CHECK_THROWS_WITH(torchlings::saxpy(1.0F, strided, strided.contiguous()),
                      Catch::Contains("expected x to be contiguous"));
    CHECK_THROWS_WITH(torchlings::saxpy(1.0F, torch::Tensor(), x),
                      Catch::Contains("expected x to be a defined tensor"));
}

TEST_CASE("sum body: every grid size covers every element once", "[kernels]") {
    // Distinct powers of two reveal a missed or doubled element exactly.
    std::vector<float> x(237);  // seven full chunks and a tail
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = static_cast<float>(i + 1);
    }
    const float expected = 237.0F * 238.0F / 2.0F;
    for (const int64_t threads : {1, 2, 3, 4, 5, 8, 64, 256, 1000}) {
        INFO("virtual threads = " << threads);
        CHECK(torchlings::kernels::sum_cpu_grid(x.data(), 237, threads) == expected);
    }
    CHECK_THROWS_AS(torchlings::kernels::sum_cpu_grid(x.data(), 237, 0), std::invalid_argument);
}

TEST_CASE("sum CPU twin matches ATen at every size", "[kernels]") {
    torch::manual_seed(1);
    for (const int64_t n : kSizes) {
        INFO("n = " << n);
        const auto x = torch::rand({n});  // positive: a relative tolerance means something
        TL_CHECK_TENSOR_CLOSE(torchlings::sum(x), x.sum(), kSumTolerance);
    }
}

TEST_CASE("sum grid blocks stay within bounds", "[kernels]") {
    CHECK(torchlings::kernels::sum_grid_blocks(0) == 1);
    CHECK(torchlings::kernels::sum_grid_blocks(1) == 1);
    using torchlings::kernels::kBlockSize;
    using torchlings::kernels::kSumChunk;
    CHECK(torchlings::kernels::sum_grid_blocks(kSumChunk * kBlockSize) == 1);
    CHECK(torchlings::kernels::sum_grid_blocks(kSumChunk * kBlockSize + 1) == 2);
    CHECK(torchlings::kernels::sum_grid_blocks(int64_t{1} << 32) == 1024);
}

TEST_CASE("sum rejects bad arguments", "[kernels]") {
    CHECK_THROWS_WITH(torchlings::sum(torch::ones({3}, torch::kInt)),
                      Catch::Contains("expected x to be float32"));
    CHECK_THROWS_WITH(torchlings::sum(torch::ones({4, 4}).t()),
                      Catch::Contains("expected x to be contiguous"));
}

TEST_CASE("CUDA tensors without compiled kernels are a clear error", "[kernels]") {
    if (torchlings::cuda_kernels_compiled()) {
        SUCCEED("kernels compiled: covered by the [gpu] cases");
        return;
    }
    if (!torch::cuda::is_available()) {
        SUCCEED("no GPU to make a CUDA tensor on");
        return;
    }
    const auto x = torch::ones({4}, torch::kCUDA);
    CHECK_THROWS_WITH(torchlings::saxpy(1.0F, x, x), Catch::Contains("compiled no CUDA kernels"));
}

TEST_CASE("saxpy CUDA kernel matches ATen at every size", "[gpu][kernels]") {
    TL_REQUIRE_CUDA();
    REQUIRE(torchlings::cuda_kernels_compiled());
    torch::manual_seed(2);
    for (const int64_t n : kSizes) {
        INFO("n = " << n);
        const auto x = torch::randn({n}, torch::kCUDA);
        const auto y = torch::randn({n}, torch::kCUDA);
        TL_CHECK_TENSOR_CLOSE(torchlings::saxpy(-0.5F, x, y), torch::add(y, x, -0.5));
    }
    const auto cpu = torch::ones({4});
    CHECK_THROWS_WITH(torchlings::saxpy(1.0F, cpu, cpu.cuda()),
                      Catch::Contains("expected x and y on one device"));
}

TEST_CASE("sum CUDA kernel matches ATen at every size", "[gpu][kernels]") {
    TL_REQUIRE_CUDA();
    REQUIRE(torchlings::cuda_kernels_compiled());
    torch::manual_seed(3);
    for (const int64_t n : kSizes) {
        INFO("n = " << n);
        const auto x = torch::rand({n}, torch::kCUDA);
        TL_CHECK_TENSOR_CLOSE(torchlings::sum(x), x.sum(), kSumTolerance);
    }
}
