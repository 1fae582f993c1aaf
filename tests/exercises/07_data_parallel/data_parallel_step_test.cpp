/// @file data_parallel_step_test.cpp
/// @brief Tests of exercise data_parallel_step, built against the learner's file and the solution.
///
/// The reference is ordinary single-device SGD on the whole batch: same model, same data, one
/// backward of the batch's mean cross-entropy. A correct data-parallel step must land on the same
/// parameters, up to float rounding, whatever the number of shards.
#include "data_parallel_step.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <memory>
#include <stdexcept>

namespace {

constexpr double kLr = 0.5;
const tl_test::Tolerance kTol{1e-5, 1e-6};

struct Problem {
    torch::Tensor x;  // [rows, 6]
    torch::Tensor y;  // [rows] in 0..2
};

Problem make_problem(std::int64_t rows, std::uint64_t seed) {
    torch::manual_seed(seed);
    return {torch::randn({rows, 6}), torch::randint(0, 3, {rows}, torch::kLong)};
}

ex::Mlp make_model() {
    torch::manual_seed(11);
    return ex::Mlp(6, 16, 3);
}

ex::Mlp copy_of(const ex::Mlp& model) {
    return ex::Mlp(std::dynamic_pointer_cast<ex::MlpImpl>(model->clone()));
}

// One plain SGD step on the whole batch; returns the loss before the step.
double reference_step(ex::Mlp& model, torch::optim::SGD& sgd, const Problem& p) {
    sgd.zero_grad();
    const auto loss = torch::nn::functional::cross_entropy(model->forward(p.x), p.y);
    loss.backward();
    sgd.step();
    return loss.item<double>();
}

void check_same_parameters(const ex::Mlp& actual, const ex::Mlp& expected) {
    const auto mine = actual->named_parameters();
    for (const auto& item : expected->named_parameters()) {
        INFO("parameter " << item.key());
        TL_CHECK_TENSOR_CLOSE(*mine.find(item.key()), item.value(), kTol);
    }
}

std::vector<c10::Device> cpus(std::size_t n) { return std::vector<c10::Device>(n, c10::kCPU); }

// One data-parallel step over `n` CPU "devices" on `rows` rows (seed `seed`): the loss and the
// parameters of one plain SGD step of the whole batch.
void check_cpu_step(std::size_t n, std::int64_t rows, std::uint64_t seed) {
    auto model = make_model();
    auto expected = copy_of(model);
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr));
    torch::optim::SGD reference(expected->parameters(), torch::optim::SGDOptions(kLr));
    const auto p = make_problem(rows, seed);
    const double loss = ex::data_parallel_step(model, sgd, p.x, p.y, cpus(n));
    CHECK(loss == Catch::Approx(reference_step(expected, reference, p)).epsilon(1e-5));
    check_same_parameters(model, expected);
}

// The hand-built data-parallel step over `devices`, from a model on `home`, against one plain
// SGD step of the whole batch on the CPU: the same loss and parameters, which stay on `home`. Run
// on GPUs and on the stand-in accelerator (tl_test/standin.h), whose devices are not the CPU and
// not each other: a shard, a replica or a gradient left on the wrong device throws there as it
// does on CUDA.
void check_matches_one_device(const std::vector<c10::Device>& devices,
                              const c10::Device& home = c10::Device(c10::kCPU)) {
    auto model = make_model();
    auto expected = copy_of(model);
    model->to(home);
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr));
    torch::optim::SGD reference(expected->parameters(), torch::optim::SGDOptions(kLr));
    const auto p = make_problem(10, 8);
    const double loss = ex::data_parallel_step(model, sgd, p.x.to(home), p.y.to(home), devices);
    CHECK(loss == Catch::Approx(reference_step(expected, reference, p)).epsilon(1e-4));
    for (const auto& item : expected->named_parameters()) {
        INFO("parameter " << item.key());
        const auto& mine = *model->named_parameters().find(item.key());
        CHECK(mine.device() == home);
        TL_CHECK_TENSOR_CLOSE(mine.to(c10::kCPU), item.value(), {1e-4, 1e-5});
    }
}

}  // namespace

TEST_CASE("one shard is plain SGD", "[task_1]") { check_cpu_step(1, 8, 1); }

TEST_CASE("N uneven shards give the parameters of one whole-batch step", "[task_2]") {
    for (const std::size_t n : {2U, 3U, 4U}) {
        INFO(n << " shards of a batch of 10");
        check_cpu_step(n, 10, 2);
    }
}

TEST_CASE("training for several steps stays on the single-device path", "[task_2]") {
    auto model = make_model();
    auto expected = copy_of(model);
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr).momentum(0.9));
    torch::optim::SGD reference(expected->parameters(),
                                torch::optim::SGDOptions(kLr).momentum(0.9));
    for (std::uint64_t step = 0; step < 5; ++step) {
        INFO("step " << step);
        const auto p = make_problem(13, 100 + step);
        const double loss = ex::data_parallel_step(model, sgd, p.x, p.y, cpus(4));
        CHECK(loss == Catch::Approx(reference_step(expected, reference, p)).epsilon(1e-5));
    }
    check_same_parameters(model, expected);
}

TEST_CASE("more devices than rows still matches", "[task_2]") { check_cpu_step(5, 3, 4); }

TEST_CASE("the original model stays where it was and gets the gradient", "[task_2]") {
    auto model = make_model();
    const auto w1 = model->w1;
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr));
    const auto p = make_problem(6, 5);
    ex::data_parallel_step(model, sgd, p.x, p.y, cpus(3));
    CHECK(model->w1.is_same(w1));
    CHECK(model->w1.device() == c10::Device(c10::kCPU));
    REQUIRE(model->w1.grad().defined());
    CHECK(model->w1.grad().sizes() == model->w1.sizes());
}

TEST_CASE("the replicas do the work, not the original", "[task_2]") {
    // A step that runs the whole batch through the original model lands on the same parameters;
    // what shows is that autograd then reaches the original's parameters, which a real step
    // never lets happen (replicas are deep copies, with no autograd link to it).
    auto model = make_model();
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr));
    int reached = 0;
    for (auto& p : model->parameters()) {
        p.register_hook([&reached](const torch::Tensor&) { ++reached; });
    }
    const auto p = make_problem(8, 9);
    ex::data_parallel_step(model, sgd, p.x, p.y, cpus(2));
    CHECK(reached == 0);
    REQUIRE(model->w1.grad().defined());
}

TEST_CASE("every listed device gets its shard, seen with meta", "[task_2]") {
    // meta holds shapes and no data, on every machine, and LibTorch cannot clone a module onto
    // it: a step that really replicates onto each listed device fails there with a c10::Error,
    // before the model changes. A step that ignores the list runs and steps.
    auto model = make_model();
    const auto w1 = model->w1.detach().clone();
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr));
    const auto p = make_problem(8, 10);
    CHECK_THROWS_AS(
        ex::data_parallel_step(model, sgd, p.x, p.y, {c10::Device("cpu"), c10::Device("meta")}),
        c10::Error);
    TL_CHECK_TENSOR_CLOSE(model->w1.detach(), w1);
    CHECK_THROWS_AS(
        ex::data_parallel_step(model, sgd, p.x, p.y, {c10::Device("meta"), c10::Device("cpu")}),
        c10::Error);
    TL_CHECK_TENSOR_CLOSE(model->w1.detach(), w1);
}

TEST_CASE("bad arguments are errors", "[task_1]") {
    auto model = make_model();
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr));
    const auto p = make_problem(4, 6);
    CHECK_THROWS_AS(ex::data_parallel_step(model, sgd, p.x, p.y, {}), std::invalid_argument);
    CHECK_THROWS_AS(ex::data_parallel_step(model, sgd, p.x, p.y.slice(0, 0, 3), cpus(2)),
                    std::invalid_argument);
    CHECK_THROWS_AS(
        ex::data_parallel_step(model, sgd, p.x.slice(0, 0, 0), p.y.slice(0, 0, 0), cpus(2)),
        std::invalid_argument);
}

TEST_CASE("an error on a shard thread reaches the caller", "[task_2]") {
    auto model = make_model();
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr));
    const auto p = make_problem(4, 7);
    // Class 9 does not exist for a 3-class model: the shard holding it throws in its thread.
    const auto bad_targets = torch::tensor({0, 1, 2, 9}, torch::kLong);
    CHECK_THROWS_AS(ex::data_parallel_step(model, sgd, p.x, bad_targets, cpus(2)), c10::Error);
}

TEST_CASE("shards on the GPU match the CPU reference", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    std::vector<c10::Device> devices;
    for (int i = 0; i < 2; ++i) {
        const auto gpus = static_cast<int>(torch::cuda::device_count());
        devices.emplace_back(c10::kCUDA, static_cast<c10::DeviceIndex>(i % gpus));
    }
    devices.emplace_back(c10::kCPU);
    check_matches_one_device(devices);
}

// Lesson 07's claim, on every machine: the hand-built step over two and three devices that are
// not the CPU lands on the parameters of one whole-batch step on one device.
TEST_CASE("shards on two and three stand-in devices match the CPU reference", "[task_2]") {
    for (const int n : {2, 3}) {
        INFO(n << " stand-in devices");
        std::vector<c10::Device> devices;
        for (int i = 0; i < n; ++i) {
            devices.push_back(tl_test::standin::device(i));
        }
        check_matches_one_device(devices);
    }
}

TEST_CASE("a model on a stand-in device is stepped where it is", "[task_2]") {
    // The original lives on standin:2, its replicas on standin:0 and the CPU: the averaged
    // gradients and the step must be on standin:2.
    check_matches_one_device({tl_test::standin::device(0), c10::Device(c10::kCPU)},
                             tl_test::standin::device(2));
}

TEST_CASE("the shard thread's own error is the one rethrown", "[task_2]") {
    // The caller must see why the shard failed (class 9 of a 3-class model), not an error from
    // a later stage that went on without that shard's gradients; and the model is not stepped.
    auto model = make_model();
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr));
    const auto w1 = model->w1.detach().clone();
    const auto p = make_problem(4, 7);
    const auto bad_targets = torch::tensor({0, 1, 2, 9}, torch::kLong);
    CHECK_THROWS_WITH(ex::data_parallel_step(model, sgd, p.x, bad_targets, cpus(2)),
                      Catch::Matchers::ContainsSubstring("out of bounds"));
    TL_CHECK_TENSOR_CLOSE(model->w1.detach(), w1);
}
