/// @file parameter_devices_test.cpp
/// @brief Tests of exercise parameter_devices, built against the learner's file and the solution.
#include "parameter_devices.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <stdexcept>

namespace {

/// Linear -> BatchNorm -> Linear, plus a tensor member that nobody registered.
struct NetImpl : torch::nn::Module {
    NetImpl()
        : fc1(register_module("fc1", torch::nn::Linear(3, 4))),
          norm(register_module("norm", torch::nn::BatchNorm1d(4))),
          fc2(register_module("fc2", torch::nn::Linear(4, 2))),
          hidden(torch::ones({4})) {}
    torch::nn::Linear fc1;
    torch::nn::BatchNorm1d norm;
    torch::nn::Linear fc2;
    torch::Tensor hidden;  // not registered: invisible to named_parameters()/named_buffers()
};
TORCH_MODULE(Net);

/// A parameter and an integer buffer made on meta. Module::to() cannot move a CPU module there
/// (meta tensors cannot take a CPU tensor's place), but a module can be built there.
struct MetaNetImpl : torch::nn::Module {
    MetaNetImpl()
        : weight(register_parameter("weight", torch::zeros({2, 3}, torch::Device("meta")))),
          steps(register_buffer(
              "steps", torch::zeros({1}, torch::TensorOptions(torch::kLong).device("meta")))) {}
    torch::Tensor weight;
    torch::Tensor steps;
};
TORCH_MODULE(MetaNet);

using Names = std::vector<std::string>;

const Names kParameters = {"fc1.weight", "fc1.bias",   "norm.weight",
                           "norm.bias",  "fc2.weight", "fc2.bias"};
const Names kBuffers = {"norm.running_mean", "norm.running_var", "norm.num_batches_tracked"};

Names all_names() {
    Names names = kParameters;
    names.insert(names.end(), kBuffers.begin(), kBuffers.end());
    return names;
}

Names names_of(const std::vector<ex::TensorPlace>& places) {
    Names names;
    for (const auto& place : places) {
        names.push_back(place.name);
    }
    return names;
}

// A model moved to `device` has nothing misplaced there, and everything misplaced on `other`, a
// device of the same type with another index (no second device is needed to compare). Run on a
// GPU and on the stand-in accelerator (tl_test/standin.h).
void check_nothing_misplaced_on(const c10::Device& device, const c10::Device& other) {
    Net net;
    net->to(device);
    CHECK(ex::misplaced(*net, device, c10::kFloat).empty());
    for (const auto& place : ex::tensor_places(*net)) {
        INFO(place.name);
        CHECK(place.device == device);
    }
    CHECK(ex::misplaced(*net, other, c10::kFloat) == all_names());
}

}  // namespace

TEST_CASE("every parameter then every buffer is listed by its dotted name", "[task_1]") {
    const Net net;
    const auto places = ex::tensor_places(*net);
    CHECK(names_of(places) == all_names());
    REQUIRE(places.size() == all_names().size());
    for (std::size_t i = 0; i < places.size(); ++i) {
        INFO(places[i].name);
        CHECK(places[i].is_buffer == (i >= kParameters.size()));
    }
}

TEST_CASE("each entry carries its own tensor's device and dtype", "[task_1]") {
    const Net net;
    const auto places = ex::tensor_places(*net);
    REQUIRE(places.size() == all_names().size());
    for (const auto& place : places) {
        INFO(place.name);
        CHECK(place.device == c10::Device("cpu"));
        // BatchNorm's step counter is an integer; everything else is float32 when built.
        const auto expected = place.name == "norm.num_batches_tracked" ? c10::kLong : c10::kFloat;
        CHECK(place.dtype == expected);
    }
}

TEST_CASE("after to kFloat64 a converted tensor is listed as Double", "[task_1]") {
    Net net;
    net->to(torch::kFloat64);
    net->fc2->bias.set_data(net->fc2->bias.to(torch::kFloat32));  // one tensor left behind
    const auto places = ex::tensor_places(*net);
    REQUIRE(places.size() == all_names().size());
    for (const auto& place : places) {
        INFO(place.name);
        CHECK(place.dtype == (place.name == "fc2.bias" ? c10::kFloat : c10::kDouble));
    }
}

TEST_CASE("a model where it should be has nothing misplaced", "[task_2]") {
    const Net net;
    // The integer counter is not "misplaced" for a float32 model: only its device is checked.
    CHECK(ex::misplaced(*net, c10::Device("cpu"), c10::kFloat).empty());
}

TEST_CASE("on the wrong device every tensor is misplaced", "[task_2]") {
    const Net net;
    // Comparing devices needs no GPU: a CPU model is simply not on cuda:0.
    CHECK(ex::misplaced(*net, c10::Device("cuda:0"), c10::kFloat) == all_names());
    CHECK(ex::misplaced(*net, c10::Device("cuda:1"), c10::kDouble) == all_names());
}

TEST_CASE("a tensor left in another dtype is reported alone", "[task_2]") {
    Net net;
    net->fc1->weight.set_data(net->fc1->weight.to(torch::kFloat64));
    CHECK(ex::misplaced(*net, c10::Device("cpu"), c10::kFloat) == Names{"fc1.weight"});
    // Seen from float64 it is the other floating-point tensors that are misplaced.
    Names expected = all_names();
    expected.erase(expected.begin());  // fc1.weight is already float64
    expected.pop_back();               // the Long counter is never a dtype mismatch
    CHECK(ex::misplaced(*net, c10::Device("cpu"), c10::kDouble) == expected);
}

TEST_CASE("an integer target dtype is rejected", "[task_2]") {
    const Net net;
    CHECK_THROWS_AS(ex::misplaced(*net, c10::Device("cpu"), c10::kLong), std::invalid_argument);
    CHECK_THROWS_AS(ex::misplaced(*net, c10::Device("cpu"), c10::kBool), std::invalid_argument);
}

TEST_CASE("each entry reports the device its tensor is on, seen on meta", "[task_1]") {
    // meta: a device with shapes and no data, on every machine. A place that does not read the
    // tensor's own device (say, the struct's default, cpu) shows here without a GPU.
    const MetaNet net;
    const c10::Device meta("meta");
    const auto places = ex::tensor_places(*net);
    CHECK(names_of(places) == Names{"weight", "steps"});
    for (const auto& place : places) {
        INFO(place.name);
        CHECK(place.device == meta);
    }
    CHECK(ex::misplaced(*net, meta, c10::kFloat).empty());
    CHECK(ex::misplaced(*net, c10::Device("cpu"), c10::kFloat) == Names{"weight", "steps"});
}

TEST_CASE("on a GPU a model moved there has nothing misplaced", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    check_nothing_misplaced_on(c10::Device("cuda:0"), c10::Device("cuda:1"));
}

TEST_CASE("on a stand-in device a model moved there has nothing misplaced", "[task_2]") {
    check_nothing_misplaced_on(tl_test::standin::device(0), tl_test::standin::device(1));
}
