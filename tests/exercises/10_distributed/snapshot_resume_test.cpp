/// @file snapshot_resume_test.cpp
/// @brief Tests of exercise snapshot_resume, built against the learner's file and the solution.
/// One process: what a restarted job needs is in the file, whichever rank reads it.
#include "snapshot_resume.h"

#include <tl_test/temp_folder.h>
#include <tl_test/tensors.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr tl_test::Tolerance kExact{0.0, 0.0};

/// A fresh folder for one test, removed at its end.
using tl_test::names_in;

struct TempFolder : tl_test::TempFolder {
    TempFolder() : tl_test::TempFolder("tl-snapshot-resume-") {}
};

/// A model with buffers (batch norm's running statistics) and an optimizer with state (SGD's
/// momentum): both are what a resumed step depends on besides the parameters.
struct Trainer {
    torch::nn::Sequential model;
    torch::optim::SGD optimizer;
    explicit Trainer(std::uint64_t seed)
        : model([seed] {
              torch::manual_seed(seed);
              return torch::nn::Sequential(torch::nn::Linear(3, 4), torch::nn::BatchNorm1d(4),
                                           torch::nn::Linear(4, 2));
          }()),
          optimizer(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9)) {}

    /// One training step on batch number `step` (the data depends on the step only).
    void step(std::int64_t step) {
        const auto x =
            torch::linspace(-1.0, 1.0, 24).reshape({8, 3}) * static_cast<double>(step + 1);
        const auto y = torch::arange(8) % 2;
        optimizer.zero_grad();
        torch::nn::functional::cross_entropy(model->forward(x), y).backward();
        optimizer.step();
    }
};

std::vector<at::Tensor> state_of(const torch::nn::Module& model) {
    std::vector<at::Tensor> values;
    for (const auto& p : model.parameters()) {
        values.push_back(p.detach().clone());
    }
    for (const auto& b : model.buffers()) {
        values.push_back(b.detach().clone());
    }
    return values;
}

void check_equal(const std::vector<at::Tensor>& actual, const std::vector<at::Tensor>& expected) {
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        INFO("parameter or buffer " << i);
        TL_CHECK_TENSOR_CLOSE(actual[i], expected[i], kExact);
    }
}

}  // namespace

TEST_CASE("parameters and buffers come back", "[task_1]") {
    const TempFolder temp;
    Trainer before(1);
    for (std::int64_t s = 0; s < 3; ++s) {
        before.step(s);
    }
    ex::save_snapshot(temp.path.string(), 0, {3, 0}, *before.model, before.optimizer);
    Trainer after(2);  // other initial values: everything must come from the snapshot
    REQUIRE(ex::load_snapshot(temp.path.string(), *after.model, after.optimizer).has_value());
    check_equal(state_of(*after.model), state_of(*before.model));
}

TEST_CASE("the resumed step equals the uninterrupted one, optimizer state included", "[task_1]") {
    const TempFolder temp;
    Trainer uninterrupted(1);
    for (std::int64_t s = 0; s < 3; ++s) {
        uninterrupted.step(s);
    }
    ex::save_snapshot(temp.path.string(), 0, {3, 0}, *uninterrupted.model, uninterrupted.optimizer);
    Trainer resumed(2);
    REQUIRE(ex::load_snapshot(temp.path.string(), *resumed.model, resumed.optimizer).has_value());
    for (std::int64_t s = 3; s < 5; ++s) {
        uninterrupted.step(s);
        resumed.step(s);
    }
    check_equal(state_of(*resumed.model), state_of(*uninterrupted.model));
}

TEST_CASE("the progress comes back as saved: the next step and the sampler's epoch", "[task_2]") {
    const TempFolder temp;
    Trainer trainer(1);
    trainer.step(0);
    ex::save_snapshot(temp.path.string(), 0, {37, 2}, *trainer.model, trainer.optimizer);
    const auto progress = ex::load_snapshot(temp.path.string(), *trainer.model, trainer.optimizer);
    REQUIRE(progress.has_value());
    CHECK(progress->step == 37);
    CHECK(progress->epoch == 2);
}

TEST_CASE("no snapshot yet: nothing to resume, nothing changed", "[task_2]") {
    const TempFolder temp;
    Trainer trainer(1);
    trainer.step(0);
    const auto before = state_of(*trainer.model);
    CHECK_FALSE(ex::load_snapshot(temp.path.string(), *trainer.model, trainer.optimizer));
    check_equal(state_of(*trainer.model), before);
}

TEST_CASE("only rank 0 writes", "[task_1]") {
    const TempFolder temp;
    Trainer trainer(1);
    trainer.step(0);
    for (const int rank : {1, 2, 3}) {
        ex::save_snapshot(temp.path.string(), rank, {1, 0}, *trainer.model, trainer.optimizer);
    }
    CHECK(names_in(temp.path).empty());
    ex::save_snapshot(temp.path.string(), 0, {1, 0}, *trainer.model, trainer.optimizer);
    CHECK(names_in(temp.path) == std::vector<std::string>{"snapshot.pt"});
}

TEST_CASE("a reader of the previous snapshot still reads it whole: written aside, then renamed",
          "[task_1]") {
    const TempFolder temp;
    Trainer trainer(1);
    trainer.step(0);
    ex::save_snapshot(temp.path.string(), 0, {1, 0}, *trainer.model, trainer.optimizer);
    // A second name for the file snapshot.pt is now: what a process that opened it holds. A new
    // snapshot written into that same file would change it under the reader; one written aside
    // and renamed over the name leaves it whole.
    const auto held = temp.path / "held.pt";
    fs::create_hard_link(temp.path / "snapshot.pt", held);
    trainer.step(1);
    ex::save_snapshot(temp.path.string(), 0, {2, 0}, *trainer.model, trainer.optimizer);
    CHECK(names_in(temp.path) == std::vector<std::string>{"held.pt", "snapshot.pt"});
    fs::remove(temp.path / "snapshot.pt");
    fs::rename(held, temp.path / "snapshot.pt");
    Trainer reader(2);
    const auto progress = ex::load_snapshot(temp.path.string(), *reader.model, reader.optimizer);
    REQUIRE(progress.has_value());
    CHECK(progress->step == 1);
}
