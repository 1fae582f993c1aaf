/// @file load_onto_device_test.cpp
/// @brief Tests of exercise load_onto_device, built against the learner's file and the solution.
#include "load_onto_device.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>

namespace {

/// A file name in the system's temporary folder, removed when the test case ends.
struct TempFile {
    std::string path;
    TempFile() {
        std::random_device random;
        path = (std::filesystem::temp_directory_path() /
                ("torchlings_load_onto_device_" + std::to_string(random()) + ".pt"))
                   .string();
    }
    ~TempFile() {
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
};

/// A TinyNet whose buffer is not all zeros, so that a forgotten buffer shows.
ex::TinyNet a_trained_net() {
    ex::TinyNet net(3, 2);
    net->forward(torch::randn({8, 3}) + 1.0);  // training mode: updates input_mean
    return net;
}

void check_same_values(const ex::TinyNet& actual, const ex::TinyNet& expected) {
    TL_CHECK_TENSOR_CLOSE(actual->weight, expected->weight);
    TL_CHECK_TENSOR_CLOSE(actual->bias, expected->bias);
    TL_CHECK_TENSOR_CLOSE(actual->input_mean, expected->input_mean);
}

// A checkpoint saved on the CPU, loaded onto `device`: every parameter and buffer ends there with
// the saved values. Run on a GPU and on the stand-in accelerator (tl_test/standin.h).
void check_checkpoint_loads_onto(const c10::Device& device) {
    const TempFile file;
    const auto saved = a_trained_net();
    torch::save(saved, file.path);
    const auto loaded = ex::load_onto(file.path, 3, 2, device, c10::kFloat);
    for (const auto& t : loaded->parameters()) {
        CHECK(t.device() == device);
    }
    CHECK(loaded->input_mean.device() == device);
    TL_CHECK_TENSOR_CLOSE(loaded->weight.cpu(), saved->weight);
}

}  // namespace

TEST_CASE("save_model writes a file that torch load reads back", "[task_1]") {
    const TempFile file;
    const auto saved = a_trained_net();
    ex::save_model(saved, file.path);
    REQUIRE(std::filesystem::exists(file.path));
    ex::TinyNet loaded(3, 2);
    torch::load(loaded, file.path);
    check_same_values(loaded, saved);
}

TEST_CASE("a fresh instance gets the saved values on the CPU", "[task_2]") {
    const TempFile file;
    const auto saved = a_trained_net();
    torch::save(saved, file.path);
    const auto loaded = ex::load_onto(file.path, 3, 2, c10::Device("cpu"), c10::kFloat);
    check_same_values(loaded, saved);
    CHECK(loaded.ptr() != saved.ptr());
    CHECK(loaded->weight.data_ptr() != saved->weight.data_ptr());
}

TEST_CASE("a float64 checkpoint loads as the same float64 values", "[task_2]") {
    const TempFile file;
    auto saved = a_trained_net();
    saved->to(torch::kFloat64);
    torch::save(saved, file.path);
    // Loaded into a float32 model, the float64 bytes would be read as float32: garbage.
    const auto loaded = ex::load_onto(file.path, 3, 2, c10::Device("cpu"), c10::kDouble);
    CHECK(loaded->weight.scalar_type() == c10::kDouble);
    check_same_values(loaded, saved);
}

TEST_CASE("the loaded model predicts what the saved one does", "[task_2]") {
    const TempFile file;
    auto saved = a_trained_net();
    torch::save(saved, file.path);
    auto loaded = ex::load_onto(file.path, 3, 2, c10::Device("cpu"), c10::kFloat);
    saved->eval();
    loaded->eval();
    const auto x = torch::randn({4, 3});
    TL_CHECK_TENSOR_CLOSE(loaded->forward(x), saved->forward(x));
}

TEST_CASE("a missing file is an error that names the path", "[task_3]") {
    const TempFile file;  // never written
    try {
        ex::load_onto(file.path, 3, 2, c10::Device("cpu"), c10::kFloat);
        FAIL("expected std::invalid_argument for a missing file");
    } catch (const std::invalid_argument& e) {
        CHECK_THAT(e.what(), Catch::Matchers::ContainsSubstring(file.path));
    }
}

TEST_CASE("a folder at the path is not a saved model either", "[task_3]") {
    const auto folder = std::filesystem::temp_directory_path().string();
    CHECK_THROWS_AS(ex::load_onto(folder, 3, 2, c10::Device("cpu"), c10::kFloat),
                    std::invalid_argument);
}

TEST_CASE("on a GPU a CPU checkpoint loads onto the GPU", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    check_checkpoint_loads_onto(c10::Device("cuda:0"));
}

TEST_CASE("a CPU checkpoint loads onto a stand-in device", "[task_2]") {
    check_checkpoint_loads_onto(tl_test::standin::device(2));
}
