/// @file vector_sum_test.cpp
/// @brief Tests of exercise vector_sum, built against the learner's file and the solution.
///
/// Element i holds 2^(i % 16), plus a poisoned float just past n. Such values add exactly in
/// float32 when each is added once, so the twin's total is exact: a lost tail, a doubled group or
/// a read past the end each change it. (Every partial sum stays below 2^24, where float32 still
/// holds every whole number, for n up to 4000.) With TORCHLINGS_TEST_SEED set (as when a class is
/// graded), the cases also run on sizes drawn from it (tl_test/drawn.h).
#include "vector_sum.h"

#include <tl_test/drawn.h>
#include <tl_test/tensors.h>

#if TL_EXERCISE_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

#include <cmath>
#include <vector>

namespace {

constexpr float kPoison = 1.0e6F;

struct Data {
    std::vector<float> x;  // n values and 8 poisoned slots after them
    double expected = 0.0;
};

Data data_of(std::int64_t n) {
    Data d;
    d.x.assign(static_cast<std::size_t>(n + 8), kPoison);
    for (std::int64_t i = 0; i < n; ++i) {
        d.x[static_cast<std::size_t>(i)] = std::ldexp(1.0F, static_cast<int>(i % 16));
        d.expected += d.x[static_cast<std::size_t>(i)];
    }
    return d;
}

// The CPU twin of sum4_kernel: every thread of the grid in turn, partials added in double.
double twin(const Data& d, std::int64_t n, std::int64_t num_threads) {
    double total = 0.0;
    for (std::int64_t t = 0; t < num_threads; ++t) {
        total += ex::sum4_body(t, num_threads, d.x.data(), n);
    }
    return total;
}

}  // namespace

TEST_CASE("one thread sums everything, tail included", "[vector_sum]") {
    for (const std::int64_t n : tl_test::with_drawn({0, 1, 3, 4, 5, 8, 11, 64, 103}, 4, 0, 4000,
                                                    "one thread sums everything")) {
        INFO("n = " << n << " (n % 4 = " << n % 4 << ")" << tl_test::seed_note());
        const auto d = data_of(n);
        CHECK(twin(d, n, 1) == d.expected);
    }
}

TEST_CASE("every grid size adds every element exactly once", "[vector_sum]") {
    const auto sizes = tl_test::with_drawn({1, 6, 16, 17, 250, 1003}, 3, 1, 4000, "grid: n");
    const auto grids =
        tl_test::with_drawn({2, 3, 4, 7, 32, 256, 2048}, 3, 2, 4096, "grid: threads");
    for (const std::int64_t n : sizes) {
        for (const std::int64_t threads : grids) {
            INFO("n = " << n << ", threads in the grid = " << threads << tl_test::seed_note());
            const auto d = data_of(n);
            CHECK(twin(d, n, threads) == d.expected);
        }
    }
}

TEST_CASE("a thread's share is its own groups: thread 1 of 2", "[vector_sum]") {
    // Groups: [0..3] -> thread 0, [4..7] -> thread 1, [8..11] -> thread 0; tail 12 -> thread 0.
    std::vector<float> x(13);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = static_cast<float>(i);
    }
    CHECK(ex::sum4_body(1, 2, x.data(), 13) == 4.0F + 5.0F + 6.0F + 7.0F);
    CHECK(ex::sum4_body(0, 2, x.data(), 13) == 0.0F + 1 + 2 + 3 + 8 + 9 + 10 + 11 + 12);
}

TEST_CASE("sum4 on the GPU matches ATen within float32 rounding", "[gpu][vector_sum]") {
#if TL_EXERCISE_CUDA
    TL_REQUIRE_CUDA();
    auto out = torch::empty({}, torch::kCUDA);
    for (const std::int64_t n : {5, 4099, 1 << 22}) {
        INFO("n = " << n);
        const auto x = torch::rand({n}, torch::kCUDA);
        ex::launch_sum4(x.const_data_ptr<float>(), n, out.mutable_data_ptr<float>(), 40,
                        at::cuda::getCurrentCUDAStream().stream());
        // Each thread's running sum adds at most n / (40 * 256) + 4 terms, then atomics add
        // 10240 partials in any order: error <= (n / 10240 + 10244) * 2^-24 * sum|x|.
        const double bound = (static_cast<double>(n) / 10240.0 + 10244.0) * std::ldexp(1.0, -24);
        TL_CHECK_TENSOR_CLOSE(out, x.sum(), tl_test::Tolerance{bound, 1e-6});
    }
#else
    TL_SKIP(
        "this build compiles no CUDA (no nvcc, or TORCHLINGS_CUDA=OFF): the CPU cases test the "
        "body");
#endif
}
