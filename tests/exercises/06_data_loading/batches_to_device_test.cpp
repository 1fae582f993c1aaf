/// @file batches_to_device_test.cpp
/// @brief Tests of exercise batches_to_device, built against the learner's file and the solution.
#include "batches_to_device.h"

#include <tl_test/standin.h>
#include <tl_test/tensors.h>

#include <tl_test/operators.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace {

// n rows of 2 float features (row i is [i, -i]) with int64 targets 0..n-1, in index order.
std::unique_ptr<ex::OrderedLoader> ordered(int64_t n, std::size_t batch, bool drop_last) {
    const auto column = torch::arange(n, torch::kFloat32);
    ex::LabeledTensors dataset(torch::stack({column, -column}, 1), torch::arange(n));
    return torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        dataset.map(torch::data::transforms::Stack<>()),
        torch::data::DataLoaderOptions().batch_size(batch).drop_last(drop_last));
}

const c10::Device kCpu("cpu");
const c10::Device kCuda("cuda:0");

// Every batch's data and targets reach `device`, with the data's values intact. Run on a GPU and
// on the stand-in accelerator (tl_test/standin.h), a device that is not the CPU on any machine.
void check_batches_reach(const c10::Device& device) {
    auto loader = ordered(8, 4, false);
    int on_device = 0;
    std::vector<torch::Tensor> data;
    const auto count = ex::run_epoch(
        *loader, device, torch::kFloat32, [&](const torch::Tensor& x, const torch::Tensor& y) {
            on_device += (x.device() == device && y.device() == device) ? 1 : 0;
            data.push_back(x.cpu());
        });
    CHECK(count.batches == 2);
    CHECK(on_device == 2);
    REQUIRE(data.size() == 2);
    TL_CHECK_TENSOR_CLOSE(data[1].select(1, 0), torch::arange(4, 8, torch::kFloat32));
}

// The non_blocking flag of every aten::_to_copy (the copy behind to()) run by this thread, seen
// through LibTorch's operator observers (RecordFunction, what the profiler uses): it shows what a
// copy asked for on any machine, where only a GPU would show what it did.
thread_local std::vector<bool> to_copy_non_blocking;

std::unique_ptr<at::ObserverContext> record_to_copy(const at::RecordFunction& fn) {
    if (std::string_view(fn.name()) == "aten::_to_copy") {
        // _to_copy(self, *, dtype, layout, device, pin_memory, non_blocking, memory_format)
        const auto inputs = fn.inputs();
        if (inputs.size() > 5 && inputs[5].isBool()) {
            to_copy_non_blocking.push_back(inputs[5].toBool());
        }
    }
    return nullptr;
}

}  // namespace

TEST_CASE("an async copy needs pinned host memory and a CUDA target", "[task_1]") {
    CHECK(ex::copy_can_be_async(kCpu, /*source_pinned=*/true, kCuda));
    CHECK(ex::copy_can_be_async(kCpu, true, c10::Device("cuda:1")));
}

TEST_CASE("pageable memory or a CPU target means a blocking copy", "[task_1]") {
    CHECK_FALSE(ex::copy_can_be_async(kCpu, /*source_pinned=*/false, kCuda));
    CHECK_FALSE(ex::copy_can_be_async(kCpu, true, kCpu));
    CHECK_FALSE(ex::copy_can_be_async(kCuda, false, kCpu));
}

TEST_CASE("batches reach the GPU", "[gpu][task_2]") {
    TL_REQUIRE_CUDA();
    check_batches_reach(kCuda);
}

TEST_CASE("pinned memory copies asynchronously to CUDA only", "[task_1]") {
    // Only CUDA's copy engines read pinned host pages by themselves: to meta or to another
    // backend (the stand-in accelerator here) non_blocking gains nothing.
    CHECK_FALSE(ex::copy_can_be_async(kCpu, true, c10::Device("meta")));
    CHECK_FALSE(ex::copy_can_be_async(kCpu, true, tl_test::standin::device(1)));
}

TEST_CASE("every batch is counted", "[task_2]") {
    auto loader = ordered(10, 4, false);
    const auto count =
        ex::run_epoch(*loader, kCpu, torch::kFloat32, [](const auto&, const auto&) {});
    CHECK(count.samples == 10);
    CHECK(count.batches == 3);
}

TEST_CASE("a dropped last batch is not counted", "[task_2]") {
    auto loader = ordered(10, 4, true);
    const auto count =
        ex::run_epoch(*loader, kCpu, torch::kFloat32, [](const auto&, const auto&) {});
    CHECK(count.samples == 8);
    CHECK(count.batches == 2);
}

TEST_CASE("the step gets data in the model dtype and targets unchanged", "[task_2]") {
    auto loader = ordered(6, 4, false);
    std::vector<torch::Tensor> data;
    std::vector<torch::Tensor> targets;
    (void)ex::run_epoch(*loader, kCpu, torch::kFloat64,
                        [&](const torch::Tensor& x, const torch::Tensor& y) {
                            data.push_back(x);
                            targets.push_back(y);
                        });
    REQUIRE(data.size() == 2);
    const auto column = torch::arange(6, torch::kFloat64);
    TL_CHECK_TENSOR_CLOSE(torch::cat(data), torch::stack({column, -column}, 1));
    TL_CHECK_TENSOR_CLOSE(torch::cat(targets), torch::arange(6));
}

TEST_CASE("an empty step is rejected", "[task_2]") {
    auto loader = ordered(4, 2, false);
    CHECK_THROWS_AS(ex::run_epoch(*loader, kCpu, torch::kFloat32, ex::Step{}),
                    std::invalid_argument);
}

TEST_CASE("an empty step is rejected before the loader is touched", "[task_2]") {
    // A check inside the loop runs only once a batch has arrived: over an empty loader it never
    // runs at all. The step is checked first, whatever the loader holds.
    auto loader = ordered(0, 2, false);
    CHECK_THROWS_AS(ex::run_epoch(*loader, kCpu, torch::kFloat32, ex::Step{}),
                    std::invalid_argument);
}

TEST_CASE("batches reach the device asked for, seen on meta", "[task_2]") {
    // meta holds shapes and no data, on every machine: a batch left on the CPU shows here as it
    // would next to a GPU model.
    auto loader = ordered(6, 4, false);
    const c10::Device meta("meta");
    std::vector<c10::Device> data_devices;
    std::vector<c10::Device> target_devices;
    std::vector<c10::ScalarType> target_dtypes;
    const auto count = ex::run_epoch(*loader, meta, torch::kFloat64,
                                     [&](const torch::Tensor& x, const torch::Tensor& y) {
                                         data_devices.push_back(x.device());
                                         target_devices.push_back(y.device());
                                         target_dtypes.push_back(y.scalar_type());
                                     });
    CHECK(count.batches == 2);
    CHECK(count.samples == 6);
    CHECK(data_devices == std::vector<c10::Device>(2, meta));
    CHECK(target_devices == std::vector<c10::Device>(2, meta));
    CHECK(target_dtypes == std::vector<c10::ScalarType>(2, torch::kInt64));
}

TEST_CASE("batches reach a stand-in device", "[task_2]") {
    check_batches_reach(tl_test::standin::device(1));
}

TEST_CASE("pageable batches are copied with non_blocking false", "[task_2]") {
    // The loader's batches are pageable CPU memory: no copy of them can be asynchronous, whatever
    // the target, so none may ask for non_blocking (a copy to the CPU that did would hand the step
    // a buffer still being written).
    to_copy_non_blocking.clear();
    {
        const tl_test::OperatorWatch watch(record_to_copy);
        for (const auto& device : {kCpu, c10::Device("meta"), tl_test::standin::device(1)}) {
            auto loader = ordered(6, 4, false);
            (void)ex::run_epoch(*loader, device, torch::kFloat64,
                                [](const torch::Tensor&, const torch::Tensor&) {});
        }
    }
    CHECK_FALSE(to_copy_non_blocking.empty());
    CHECK(std::count(to_copy_non_blocking.begin(), to_copy_non_blocking.end(), true) == 0);
}
