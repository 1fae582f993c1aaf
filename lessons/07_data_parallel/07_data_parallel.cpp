/// @file 07_data_parallel.cpp
/// @brief Lesson 07 — DataParallel: one model, several devices, each batch split between them.
///
/// What you will learn:
///   1. what torch::nn::parallel::data_parallel does (scatter, replicate, parallel apply, gather),
///      what it costs on every call, and what it does with one device;
///   2. to build data parallelism by hand over any list of devices, several CPU "devices" included;
///   3. why N shards with size-weighted gradients train exactly like one device, and what it costs.
/// Run it: ./torchlings run 07            (or: build/dev/bin/lesson_07 --device cpu)
#include <torchlings/device.h>
#include <torchlings/lesson.h>
#include <torchlings/mlp.h>
#include <torchlings/timer.h>

#include <c10/core/DeviceGuard.h>
#include <torch/torch.h>

// data_parallel.h includes <torch/csrc/autograd/functions/comm.h>, which needs the CUDA headers
// (c10/cuda/CUDAStream.h), and its Scatter/Gather live in libtorch_cuda. The lesson compiles the
// library's version only where the course links LibTorch's CUDA libraries (TL_TORCH_CUDA, set by
// cmake/TorchlingsTorch.cmake): headers found on the include path are not enough, since a
// CPU-only LibTorch cannot link Scatter/Gather even where a CUDA toolkit's headers are installed.
#if TL_TORCH_CUDA
#include <torch/nn/parallel/data_parallel.h>
/// 1 when data_parallel is compiled in: this LibTorch's CUDA libraries are linked.
#define TL_HAVE_DATA_PARALLEL 1
#else
/// 1 when data_parallel is compiled in: this LibTorch's CUDA libraries are linked.
#define TL_HAVE_DATA_PARALLEL 0
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using torchlings::fixed;
using torchlings::print_field;
using torchlings::print_section;
using torchlings::scientific;

constexpr std::int64_t kFeatures = 8;
constexpr std::int64_t kHidden = 32;
constexpr std::int64_t kClasses = 4;
constexpr std::int64_t kBatch = 128;
constexpr int kShards = 4;
constexpr double kLr = 0.1;
constexpr int kEpochs = 5;

// shape() and error_of() serve only the sections that data_parallel is compiled for
// (TL_HAVE_DATA_PARALLEL); a CPU-only LibTorch leaves them unused.
[[maybe_unused]] std::string shape(const torch::Tensor& t) {
    std::ostringstream out;
    out << t.sizes() << " on " << t.device();
    return out.str();
}

/// "a, b, c": each item as `name` writes it.
template <typename T, typename Name>
std::string join(const std::vector<T>& items, Name name) {
    std::string text;
    for (const auto& item : items) {
        text += (text.empty() ? "" : ", ") + name(item);
    }
    return text;
}

std::string device_list(const std::vector<c10::Device>& devices) {
    return join(devices, [](const c10::Device& d) { return d.str(); });
}

/// Runs `body` and returns the first line of the c10::Error it throws, or "no error".
[[maybe_unused]] std::string error_of(const std::function<void()>& body) {
    try {
        body();
    } catch (const c10::Error& e) {
        return "error: " + torchlings::first_line(e);
    }
    return "no error";
}

// The problem and the model (the README's opening section, before section 1).
// Gaussian blobs: one random centre per class, points scattered around it. Generated in-process
// from a fixed seed, so every run (and every shard count) sees the same data.
struct Data {
    torch::Tensor x;  ///< [rows, kFeatures] float32.
    torch::Tensor y;  ///< [rows] int64 class indices.
};

std::pair<Data, Data> make_blobs(std::int64_t train_rows, std::int64_t test_rows) {
    torch::manual_seed(7);
    const auto centres = torch::randn({kClasses, kFeatures}) * 1.5;
    const auto draw = [&](std::int64_t rows) {
        const auto y = torch::randint(0, kClasses, {rows}, torch::kLong);
        return Data{centres.index_select(0, y) + torch::randn({rows, kFeatures}), y};
    };
    auto train = draw(train_rows);
    return {train, draw(test_rows)};
}

/// The course's two-layer classifier (torchlings/mlp.h). Cloneable<> gives it clone(device), which
/// data_parallel's replicate() and our hand-built version both need; its reset() registers every
/// parameter, as Cloneable requires.
using torchlings::Mlp;
using torchlings::MlpImpl;

/// A fresh model of this demo's size, initialised from the global generator.
Mlp make_model() { return Mlp(kFeatures, kHidden, kClasses); }

Mlp copy_of(const Mlp& model) { return Mlp(std::dynamic_pointer_cast<MlpImpl>(model->clone())); }

/// Every parameter of the model, flattened into one tensor on the CPU.
torch::Tensor flat(const Mlp& model) {
    return torch::nn::utils::parameters_to_vector(model->parameters()).cpu();
}

std::int64_t parameter_count(const Mlp& model) { return flat(model).numel(); }

double max_difference(const Mlp& a, const Mlp& b) {
    return (flat(a) - flat(b)).abs().max().item<double>();
}

double accuracy(Mlp& model, const Data& data, const c10::Device& device) {
    const torch::NoGradGuard no_grad;
    const auto predicted = model->forward(data.x.to(device)).argmax(1).cpu();
    return predicted.eq(data.y).to(torch::kDouble).mean().item<double>();
}

void show_problem(const Data& train, const Data& test, const Mlp& model) {
    print_section("The problem");
    print_field("Data", std::to_string(train.x.size(0)) + " training and " +
                            std::to_string(test.x.size(0)) + " test points, " +
                            std::to_string(kFeatures) + " features, " + std::to_string(kClasses) +
                            " classes (Gaussian blobs, seed 7)");
    print_field("Model", "Mlp " + std::to_string(kFeatures) + " -> " + std::to_string(kHidden) +
                             " -> " + std::to_string(kClasses) + ", " +
                             std::to_string(parameter_count(model)) +
                             " parameters, torch::nn::Cloneable");
}

// --- 1. data_parallel with one device ---
// With a single device, data_parallel neither copies nor spawns anything: it calls
// module->to(device), which moves the ORIGINAL model there for good, then forward().
void show_one_device(const Data& train, const c10::Device& device) {
    print_section("1. data_parallel with one device");
    Mlp model = make_model();
    print_field("Model before the call", model->w1.device().str());
#if TL_HAVE_DATA_PARALLEL
    const auto out = torch::nn::parallel::data_parallel(model, train.x.slice(0, 0, kBatch),
                                                        std::vector<c10::Device>{device});
    print_field("Output", "data_parallel(model, x, {" + device.str() + "}) gave " + shape(out));
    print_field("Model after the call", model->w1.device().str());
#else
    (void)train;
    print_field("Output", "not compiled: this LibTorch is CPU-only (device " + device.str() + ")");
    print_field("Model after the call", "not run");
#endif
    std::cout << "- With one device, data_parallel is model->to(device) then forward(): the "
                 "caller's model stays on that device afterwards.\n";
}

// --- 2. data_parallel with two or more devices ---
// Scatter the batch (chunks along dim 0), replicate the model (clone() onto each device, EVERY
// call), run the replicas through at::parallel_for (ATen's persistent intra-op threads, at most
// at::get_num_threads() at once), gather the outputs onto one device. Gather accepts only
// CUDA tensors, so this path needs GPUs.
void show_many_devices(const Data& train, const c10::Device& chosen) {
    print_section("2. data_parallel with two devices");
    const int gpus = static_cast<int>(torch::cuda::device_count());
    print_field("CUDA GPUs here", std::to_string(gpus));
    const auto x = train.x.slice(0, 0, kBatch);
#if TL_HAVE_DATA_PARALLEL
    Mlp model = make_model();
    print_field("With {cpu, cpu}", error_of([&] {
                    torch::nn::parallel::data_parallel(
                        model, x, std::vector<c10::Device>{c10::kCPU, c10::kCPU});
                }));
    if (gpus >= 2 && chosen.is_cuda()) {
        model->to(chosen);
        const auto expected = model->forward(x.to(chosen));
        // Every GPU, outputs gathered onto the chosen one (by default: onto the first, cuda:0).
        const auto out = torch::nn::parallel::data_parallel(model, x, std::nullopt, chosen);
        const auto timing = torchlings::time_on_device(
            chosen, [&] { torch::nn::parallel::data_parallel(model, x, std::nullopt, chosen); }, 10,
            2);
        print_field("Across all GPUs", shape(out) + ", max |difference| vs one GPU " +
                                           scientific((out - expected).abs().max().item<double>()) +
                                           ", " + fixed(timing.median_ms, 3) + " ms per call");
    } else {
        print_field("Across all GPUs",
                    "not run: it needs 2 or more CUDA GPUs and --device cuda; "
                    "this machine has " +
                        std::to_string(gpus));
    }
#else
    (void)chosen;
    (void)x;
    print_field("With {cpu, cpu}", "not compiled: this LibTorch is CPU-only");
    print_field("Across all GPUs", "not run: data_parallel is not compiled in");
#endif
}

// --- 3. Its pieces run on the CPU: replicate and parallel_apply ---
// replicate() clones the model per device and gives every replica parameter a ReduceAdd grad_fn
// that points back at the original: backward() then SUMS the replicas' gradients into it.
void show_pieces(const Data& train) {
    print_section("3. Its pieces: replicate and parallel_apply");
#if TL_HAVE_DATA_PARALLEL
    Mlp model = make_model();
    auto direct = copy_of(model);
    const std::vector<c10::Device> devices{c10::kCPU, c10::kCPU};
    const auto x = train.x.slice(0, 0, kBatch);
    const auto y = train.y.slice(0, 0, kBatch);
    auto replicas = torch::nn::parallel::replicate(model, devices);
    const auto inputs = x.chunk(2, 0);
    const auto outputs = torch::nn::parallel::parallel_apply(replicas, inputs, devices);
    print_field("Replicas", std::to_string(replicas.size()) + " on " + device_list(devices) +
                                ", sharing storage with the original: " +
                                (replicas[0]->w1.is_alias_of(model->w1) ? "yes" : "no"));
    print_field("Outputs", shape(outputs[0]) + " and " + shape(outputs[1]));
    // What Gather does on the output device: concatenate the replicas' outputs along dim 0, in
    // batch order (it does not sum them). The loss's mean over the whole batch is the only
    // averaging: backward() then sums the replicas' gradients, each already scaled by 1/batch.
    const auto gathered = torch::cat(outputs, 0);
    const auto direct_output = direct->forward(x);
    print_field("Gathered outputs",
                shape(gathered) + ", concatenated; equal to one forward: " +
                    (torch::allclose(gathered, direct_output) ? "true" : "false"));
    const auto loss = torch::nn::functional::cross_entropy(gathered, y);
    loss.backward();
    torch::nn::functional::cross_entropy(direct_output, y).backward();
    double worst = 0.0;
    for (std::size_t i = 0; i < model->parameters().size(); ++i) {
        worst = std::max(worst, (model->parameters()[i].grad() - direct->parameters()[i].grad())
                                    .abs()
                                    .max()
                                    .item<double>());
    }
    print_field("Original's gradient",
                "reduced from both replicas by ReduceAdd; max |difference| "
                "vs one device " +
                    scientific(worst));
    const auto bytes = static_cast<double>(parameter_count(model)) * 4.0 * 2.0;
    print_field("Copied on every call", std::to_string(parameter_count(model)) +
                                            " parameters x 2 replicas = " + fixed(bytes / 1024, 1) +
                                            " KiB, plus one reset() per replica");
#else
    (void)train;
    print_field("Replicas", "not compiled: this LibTorch is CPU-only");
    print_field("Outputs", "not run");
    print_field("Gathered outputs", "not run");
    print_field("Original's gradient", "not run");
    print_field("Copied on every call", "not run");
#endif
}

// --- 4. Data parallelism by hand ---
// The same four steps, written out so that they work over any list of devices, including one
// CPU repeated: each entry gets its own replica, and each shard its own thread.
std::vector<std::int64_t> shard_sizes(std::int64_t batch, std::int64_t n) {
    const std::int64_t shards = std::min(batch, n);  // never an empty shard: its mean is NaN
    std::vector<std::int64_t> sizes;
    for (std::int64_t i = 0; i < shards; ++i) {
        sizes.push_back(batch / shards + (i < batch % shards ? 1 : 0));
    }
    return sizes;
}

/// One data-parallel SGD step; returns the batch's mean loss before the step.
double data_parallel_step(Mlp& model, torch::optim::Optimizer& optimizer, const torch::Tensor& x,
                          const torch::Tensor& y, const std::vector<c10::Device>& devices) {
    const std::int64_t batch = x.size(0);
    const auto sizes = shard_sizes(batch, static_cast<std::int64_t>(devices.size()));
    const auto x_shards = x.split_with_sizes(sizes, 0);  // 1. scatter (views; moved below)
    const auto y_shards = y.split_with_sizes(sizes, 0);
    std::vector<Mlp> replicas;  // 2. replicate: the weights changed since the last step
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        replicas.emplace_back(std::dynamic_pointer_cast<MlpImpl>(model->clone(devices[i])));
    }
    std::vector<double> losses(sizes.size());
    std::vector<std::exception_ptr> errors(sizes.size());
    std::vector<std::thread> threads;  // 3. parallel apply, backward included
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        threads.emplace_back([&, i] {
            try {
                // A new thread has no current CUDA context: make the shard's GPU current first.
                torchlings::use_device_in_this_thread(devices[i]);  // no-op on the CPU
                const auto loss = torch::nn::functional::cross_entropy(
                    replicas[i]->forward(x_shards[i].to(devices[i])), y_shards[i].to(devices[i]));
                loss.backward();
                losses[i] = loss.item<double>();
            } catch (...) {
                errors[i] = std::current_exception();  // std::thread must not throw
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    for (const auto& e : errors) {
        if (e) {
            std::rethrow_exception(e);
        }
    }
    // 4. reduce: shard means weighted by n_i / B are the batch mean, so are their gradients.
    const auto originals = model->parameters();
    double loss = 0.0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const double weight = static_cast<double>(sizes[i]) / static_cast<double>(batch);
        loss += weight * losses[i];
        const auto theirs = replicas[i]->parameters();
        for (std::size_t p = 0; p < originals.size(); ++p) {
            const auto g = theirs[p].grad().to(originals[p].device()) * weight;
            originals[p].mutable_grad() = i == 0 ? g : originals[p].grad() + g;
        }
    }
    optimizer.step();  // 5. step the original; the replicas are dropped
    return loss;
}

/// One ordinary step on one device: the reference the hand-built version must match.
double single_device_step(Mlp& model, torch::optim::Optimizer& optimizer, const torch::Tensor& x,
                          const torch::Tensor& y, const c10::Device& device) {
    optimizer.zero_grad();
    const auto loss =
        torch::nn::functional::cross_entropy(model->forward(x.to(device)), y.to(device));
    loss.backward();
    optimizer.step();
    return loss.item<double>();
}

/// kShards entries: the GPUs in turn, starting at the chosen one, when there are two or more and a
/// GPU was chosen; otherwise the chosen device repeated (separate replicas on one device still test
/// the logic).
std::vector<c10::Device> shard_devices(const c10::Device& chosen, int n) {
    const int gpus = static_cast<int>(torch::cuda::device_count());
    const int first = chosen.is_cuda() && chosen.has_index() ? chosen.index() : 0;
    std::vector<c10::Device> devices;
    for (int i = 0; i < n; ++i) {
        devices.push_back(
            chosen.is_cuda() && gpus >= 2
                ? c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>((first + i) % gpus))
                : chosen);
    }
    return devices;
}

void show_by_hand(const Data& train, const c10::Device& device) {
    print_section("4. Data parallelism by hand");
    const auto devices = shard_devices(device, kShards);
    const auto x = train.x.slice(0, 0, kBatch + 3);  // an uneven batch: shards of 33, 33, 33, 32
    const auto y = train.y.slice(0, 0, kBatch + 3);
    Mlp model = make_model();
    model->to(device);
    auto reference = copy_of(model);
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr));
    torch::optim::SGD reference_sgd(reference->parameters(), torch::optim::SGDOptions(kLr));
    const auto sizes = join(shard_sizes(x.size(0), kShards),
                            [](std::int64_t size) { return std::to_string(size); });
    print_field("Devices", device_list(devices));
    print_field("Shard sizes", sizes + " (batch " + std::to_string(x.size(0)) + ")");
    const double loss = data_parallel_step(model, sgd, x, y, devices);
    const double expected = single_device_step(reference, reference_sgd, x, y, device);
    print_field("Loss before the step",
                fixed(loss, 6) + " by shards, " + fixed(expected, 6) + " on one device");
    print_field("Parameters after one step",
                "max |difference| vs one device " + scientific(max_difference(model, reference)));
}

// --- 5. A training loop, and evaluation ---
void show_training(const Data& train, const Data& test, const c10::Device& device) {
    print_section("5. Training with 4 shards");
    const auto devices = shard_devices(device, kShards);
    Mlp model = make_model();
    model->to(device);
    auto reference = copy_of(model);
    torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr).momentum(0.9));
    torch::optim::SGD reference_sgd(reference->parameters(),
                                    torch::optim::SGDOptions(kLr).momentum(0.9));
    print_field("Before training",
                "test accuracy " + fixed(100 * accuracy(model, test, device), 1) + " %");
    const std::int64_t rows = train.x.size(0);
    for (int epoch = 1; epoch <= kEpochs; ++epoch) {
        model->train();
        double total = 0.0;
        int steps = 0;
        for (std::int64_t start = 0; start < rows; start += kBatch) {
            const auto end = std::min(rows, start + kBatch);
            const auto x = train.x.slice(0, start, end);
            const auto y = train.y.slice(0, start, end);
            total += data_parallel_step(model, sgd, x, y, devices);
            single_device_step(reference, reference_sgd, x, y, device);
            ++steps;
        }
        model->eval();
        print_field("Epoch " + std::to_string(epoch),
                    "mean loss " + fixed(total / steps, 4) + ", test accuracy " +
                        fixed(100 * accuracy(model, test, device), 1) + " %");
    }
    print_field("After training", "max |difference| vs the same training on one device " +
                                      scientific(max_difference(model, reference)));
}

// --- 6. What the shards cost ---
void show_cost(const Data& train, const c10::Device& device) {
    print_section("6. What the shards cost");
    const auto x = train.x.slice(0, 0, 4 * kBatch);
    const auto y = train.y.slice(0, 0, 4 * kBatch);
    for (const int n : {1, 2, 4}) {
        Mlp model = make_model();
        model->to(device);
        torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(kLr));
        const auto devices = shard_devices(device, n);
        const auto timing = torchlings::time_on_device(
            device, [&] { data_parallel_step(model, sgd, x, y, devices); }, 10, 2);
        print_field(std::to_string(n) + (n == 1 ? " shard" : " shards"),
                    fixed(timing.median_ms, 3) + " ms per step (batch " +
                        std::to_string(x.size(0)) + ", median of 10)");
    }
    std::cout << "- Every step clones the model once per shard and starts one thread per shard: "
                 "work that the single-device step does not do.\n"
              << "- CPU shards share this machine's " << std::thread::hardware_concurrency()
              << " hardware threads (and ATen's own intra-op threads): they compete for the same "
                 "cores, so more shards cannot go faster than the cores allow.\n"
              << "- On GPUs the shards run on separate devices; benchmarks/bench_data_parallel.cpp "
                 "measures both.\n";
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::run_lesson(argc, argv, "torchlings lesson 07: DataParallel",
                                  [](const torchlings::LessonContext& context) {
                                      const auto [train, test] = make_blobs(2048, 512);
                                      show_problem(train, test, make_model());
                                      show_one_device(train, context.device);
                                      show_many_devices(train, context.device);
                                      show_pieces(train);
                                      show_by_hand(train, context.device);
                                      show_training(train, test, context.device);
                                      show_cost(train, context.device);
                                  });
}
