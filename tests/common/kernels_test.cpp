/// @file kernels_test.cpp
/// @brief The course's kernels against ATen: CPU twins everywhere, CUDA kernels on a GPU.
#include <torchlings/kernels.h>

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
                      Catch::Matchers::ContainsSubstring("expected x to be float32"));
    CHECK_THROWS_WITH(torchlings::saxpy(1.0F, x, torch::ones({5})),
                      Catch::Matchers::ContainsSubstring("expected x and y of one shape"));
    const auto strided = torch::ones({4, 4}).t();
    CHECK_THROWS_WITH(torchlings::saxpy(1.0F, strided, strided.contiguous()),
                      Catch::Matchers::ContainsSubstring("expected x to be contiguous"));
    CHECK_THROWS_WITH(torchlings::saxpy(1.0F, torch::Tensor(), x),
                      Catch::Matchers::ContainsSubstring("expected x to be a defined tensor"));
}

TEST_CASE("sum bodies: every grid size covers every element once", "[kernels]") {
    // Integers up to 2^24 add exactly in float32, so a missed or doubled element shows exactly.
    for (const int64_t n : {0, 1, 3, 4, 5, 15, 16, 17, 237, 1000}) {
        std::vector<float> x(static_cast<std::size_t>(n));
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] = static_cast<float>(i + 1);
        }
        const auto expected = static_cast<float>(n * (n + 1) / 2);
        for (const auto step : torchlings::kernels::kSumSteps) {
            for (const int64_t threads : {1, 2, 3, 4, 5, 8, 64, 256, 1000}) {
                INFO("n = " << n << ", step " << torchlings::kernels::sum_step_name(step)
                            << ", virtual threads = " << threads);
                CHECK(torchlings::kernels::sum_cpu_grid(x.data(), n, threads, step) == expected);
            }
        }
    }
    const float one = 1.0F;
    CHECK_THROWS_AS(
        torchlings::kernels::sum_cpu_grid(&one, 1, 0, torchlings::kernels::kSumSteps[0]),
        std::invalid_argument);
}

TEST_CASE("shared-memory tree step: the block's total lands in slot 0", "[kernels]") {
    for (const int block : {1, 2, 32, 256}) {
        INFO("block = " << block);
        std::vector<float> shared(static_cast<std::size_t>(block));
        for (int i = 0; i < block; ++i) {
            shared[static_cast<std::size_t>(i)] = static_cast<float>(i + 1);
        }
        CHECK(torchlings::kernels::tree_reduce_cpu(shared.data(), block) ==
              static_cast<float>(block * (block + 1) / 2));
    }
    std::vector<float> three(3, 1.0F);
    CHECK_THROWS_WITH(torchlings::kernels::tree_reduce_cpu(three.data(), 3),
                      Catch::Matchers::ContainsSubstring("expected a power-of-two block"));
}

TEST_CASE("sum CPU twins match ATen at every size", "[kernels]") {
    torch::manual_seed(1);
    for (const auto step : torchlings::kernels::kSumSteps) {
        for (const int64_t n : kSizes) {
            INFO("n = " << n << ", step " << torchlings::kernels::sum_step_name(step));
            const auto x = torch::rand({n});  // positive: a relative tolerance means something
            TL_CHECK_TENSOR_CLOSE(torchlings::sum(x, step), x.sum(), kSumTolerance);
        }
    }
}

TEST_CASE("sum grid: steps 1 to 3 cap at 1024 blocks, step 4 at what the GPU holds", "[kernels]") {
    using torchlings::kernels::kBlockSize;
    using torchlings::kernels::sum_grid_blocks;
    using torchlings::kernels::SumStep;
    CHECK(sum_grid_blocks(0, SumStep::kSharedTree, 1, 1) == 1);
    CHECK(sum_grid_blocks(kBlockSize, SumStep::kSharedTree, 1, 1) == 1);
    CHECK(sum_grid_blocks(kBlockSize + 1, SumStep::kAtomics, 1, 1) == 2);
    CHECK(sum_grid_blocks(int64_t{1} << 32, SumStep::kWarpShuffle, 132, 8) == 1024);
    // Step 4: 16 floats per thread, 4096 per block, at most sm_count * blocks_per_sm blocks.
    CHECK(sum_grid_blocks(0, SumStep::kVectorised, 132, 8) == 1);
    CHECK(sum_grid_blocks(4096, SumStep::kVectorised, 132, 8) == 1);
    CHECK(sum_grid_blocks(4097, SumStep::kVectorised, 132, 8) == 2);
    CHECK(sum_grid_blocks(int64_t{1} << 28, SumStep::kVectorised, 132, 8) == 132 * 8);
    CHECK(sum_grid_blocks(int64_t{1} << 28, SumStep::kVectorised, 40, 4) == 160);
    CHECK_THROWS_WITH(sum_grid_blocks(1, SumStep::kVectorised, 0, 8),
                      Catch::Matchers::ContainsSubstring("expected sm_count >= 1"));
}

TEST_CASE("sum rejects bad arguments", "[kernels]") {
    CHECK_THROWS_WITH(torchlings::sum(torch::ones({3}, torch::kInt)),
                      Catch::Matchers::ContainsSubstring("expected x to be float32"));
    CHECK_THROWS_WITH(torchlings::sum(torch::ones({4, 4}).t()),
                      Catch::Matchers::ContainsSubstring("expected x to be contiguous"));
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
    CHECK_THROWS_WITH(torchlings::saxpy(1.0F, x, x),
                      Catch::Matchers::ContainsSubstring("compiled no CUDA kernels"));
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
                      Catch::Matchers::ContainsSubstring("expected x and y on one device"));
}

TEST_CASE("sum CUDA kernels match ATen at every size, in every step", "[gpu][kernels]") {
    TL_REQUIRE_CUDA();
    REQUIRE(torchlings::cuda_kernels_compiled());
    torch::manual_seed(3);
    for (const auto step : torchlings::kernels::kSumSteps) {
        for (const int64_t n : kSizes) {
            INFO("n = " << n << ", step " << torchlings::kernels::sum_step_name(step));
            const auto x = torch::rand({n}, torch::kCUDA);
            TL_CHECK_TENSOR_CLOSE(torchlings::sum(x, step), x.sum(), kSumTolerance);
        }
    }
}

TEST_CASE("sum of a misaligned CUDA view falls back from float4 loads", "[gpu][kernels]") {
    TL_REQUIRE_CUDA();
    REQUIRE(torchlings::cuda_kernels_compiled());
    const auto base = torch::rand({(1 << 20) + 1}, torch::kCUDA);
    const auto view = base.narrow(0, 1, 1 << 20);  // starts 4 bytes past a 16-byte boundary
    TL_CHECK_TENSOR_CLOSE(torchlings::sum(view), view.sum(), kSumTolerance);
}
