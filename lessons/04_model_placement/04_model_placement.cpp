/// @file 04_model_placement.cpp
/// @brief Lesson 04 — model placement: a torch::nn model, its inputs and its optimizer on one
/// device.
///
/// What you will learn:
///   1. what Module::to(device or dtype) moves (registered parameters and buffers) and what not;
///   2. to check where every tensor of a model lives, and to keep inputs and optimizer with it;
///   3. inference with eval() and NoGradGuard; saving on one device and loading onto another.
/// Run it: ./torchlings run 04            (or: build/dev/bin/lesson_04 --device cpu)
#include <torchlings/device.h>
#include <torchlings/lesson.h>

#include <torch/torch.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace {

using torchlings::print_field;
using torchlings::print_section;

std::string yes_no(bool value) { return value ? "true" : "false"; }

/// "cpu, Float, [8, 4]": where a tensor lives, what it holds, its shape.
std::string describe(const torch::Tensor& t) {
    std::ostringstream out;
    out << t.device() << ", " << t.scalar_type() << ", " << t.sizes();
    return out.str();
}

/// Runs `body` and returns the first line of the c10::Error it throws, or "no error".
/// The first line is LibTorch's message; the rest is a C++ stack trace.
std::string error_of(const std::function<void()>& body) {
    try {
        body();
    } catch (const c10::Error& e) {
        return torchlings::first_line(e);
    }
    return "no error";
}

/// Bytes held by a module's registered tensors: what one move copies.
std::uint64_t state_bytes(const torch::nn::Module& module) {
    std::uint64_t bytes = 0;
    for (const auto& p : module.parameters()) {
        bytes += p.nbytes();
    }
    for (const auto& b : module.buffers()) {
        bytes += b.nbytes();
    }
    return bytes;
}

/// Where the float64 demonstrations run: the chosen device, except on Apple's MPS, which has no
/// float64 (converting an MPS tensor to it throws), so there they run on the CPU.
c10::Device float64_home(const c10::Device& device) {
    return device.is_mps() ? c10::Device(c10::DeviceType::CPU) : device;
}

/// The model of every section: BatchNorm brings buffers (running statistics) and Dropout acts
/// differently in training and in evaluation.
struct ClassifierImpl : torch::nn::Module {
    ClassifierImpl()
        : fc1(register_module("fc1", torch::nn::Linear(4, 8))),
          norm(register_module("norm", torch::nn::BatchNorm1d(8))),
          drop(register_module("drop", torch::nn::Dropout(0.5))),
          fc2(register_module("fc2", torch::nn::Linear(8, 3))) {}

    torch::Tensor forward(const torch::Tensor& x) { return fc2(drop(torch::relu(norm(fc1(x))))); }

    torch::nn::Linear fc1;
    torch::nn::BatchNorm1d norm;
    torch::nn::Dropout drop;
    torch::nn::Linear fc2;
};
TORCH_MODULE(Classifier);

// --- 1. Moving a model ---
// Module::to() returns void and changes the model in place: for every *registered* parameter and
// buffer it calls set_data(), so the tensor objects stay the same and only their storage moves.
// Moving to where a tensor already is copies nothing.
void show_move(const c10::Device& device) {
    print_section("Moving a model");
    Classifier model;
    const torch::Tensor handle = model->fc1->weight;  // a second handle on one parameter
    const void* const first_storage = handle.data_ptr();
    model->to(device);
    print_field("Moved to", device.str());
    print_field("Handle sees the move", describe(handle));
    print_field("Same tensor object", yes_no(handle.is_same(model->fc1->weight)));
    print_field("to(device) copied data", yes_no(handle.data_ptr() != first_storage));
    print_field("Bytes a real move copies", torchlings::format_bytes(state_bytes(*model)));
    const void* const second_storage = handle.data_ptr();
    model->to(float64_home(device), torch::kFloat64);
    print_field("to(kFloat64) copied data", yes_no(handle.data_ptr() != second_storage));
}

// --- 2. Where every parameter and buffer lives ---
// named_parameters() and named_buffers() walk the whole module tree: if a tensor is not in these
// lists, to(), save() and the optimizer will never see it.
void show_placement(const c10::Device& device) {
    print_section("Where every parameter and buffer lives");
    Classifier model;
    model->to(device);
    for (const auto& item : model->named_parameters()) {
        print_field(item.key(), "parameter, " + describe(item.value()));
    }
    for (const auto& item : model->named_buffers()) {
        print_field(item.key(), "buffer, " + describe(item.value()));
    }
}

// --- 3. Inputs go to the model's device ---
// Data usually arrives on the CPU (files, loaders): move each batch to the model's device and
// dtype before forward. A mismatch is an error, never a silent copy.
void show_inputs(const c10::Device& device) {
    print_section("Inputs go to the model's device");
    Classifier model;
    model->to(device);
    model->eval();
    const auto model_device = model->parameters().front().device();
    const auto batch = torch::randn({5, 4});  // as a data loader would give it: on the CPU
    const auto output = model->forward(batch.to(model_device));
    print_field("Batch made on", batch.device().str());
    print_field("Output", describe(output));
    // The same on an MNIST-sized model: 784 pixels in, 256 hidden units, 10 classes out.
    torch::nn::Sequential mnist(torch::nn::Linear(784, 256), torch::nn::ReLU(),
                                torch::nn::Linear(256, 10));
    mnist->to(device);
    const auto images = torch::randn({32, 784});
    print_field("784-256-10 on [32, 784]", describe(mnist->forward(images.to(device))));
    print_field("Input of another dtype",
                error_of([&] { model->forward(batch.to(model_device, torch::kFloat64)); }));
    // "meta" tensors have shapes but no data, on every machine: enough to trip the same device
    // check that a CPU tensor meets next to a CUDA one.
    print_field("CPU tensor + meta tensor", error_of([] {
                    (void)(torch::ones({2}) + torch::ones({2}, torch::Device("meta")));
                }));
    if (model_device.is_cuda()) {
        print_section("GPU: a CPU batch given to a CUDA model");
        print_field("Forward fails with", error_of([&] { model->forward(batch); }));
    }
}

// --- 4. A tensor member that is not registered does not move ---
// A fixed input-scaling matrix (say, a whitening matrix computed from data): not trained, but it
// must travel with the model. Kept as a plain member, to() never sees it.
struct ScaledImpl : torch::nn::Module {
    explicit ScaledImpl(bool as_buffer) : fc(register_module("fc", torch::nn::Linear(4, 3))) {
        auto matrix = torch::eye(4) * 0.5;
        scale = as_buffer ? register_buffer("scale", matrix) : matrix;
    }
    torch::Tensor forward(const torch::Tensor& x) { return fc(x.matmul(scale)); }

    torch::nn::Linear fc;
    torch::Tensor scale;
};
TORCH_MODULE(Scaled);

void show_unregistered(const c10::Device& device) {
    print_section("A tensor member that is not registered");
    const auto home = float64_home(device);
    Scaled plain(false);
    plain->to(home, torch::kFloat64);
    const auto x = torch::randn({2, 4}, torch::TensorOptions(torch::kFloat64).device(home));
    print_field("Plain member after to()", describe(plain->scale));
    print_field("The Linear's weight", describe(plain->fc->weight));
    print_field("Forward fails with", error_of([&] { plain->forward(x); }));
    Scaled fixed(true);  // the fix: register_buffer("scale", ...)
    fixed->to(home, torch::kFloat64);
    print_field("Buffer after to()", describe(fixed->scale));
    print_field("Forward then gives", describe(fixed->forward(x)));
}

// --- 5. Changing a model's dtype ---
// The same to() converts dtype: float64 doubles the bytes, bfloat16 halves them. LibTorch
// converts integer buffers too (BatchNorm's step counter), unlike Python's module.to(dtype).
void show_dtypes(const c10::Device& device) {
    print_section("Changing a model's dtype");
    for (const auto dtype : {torch::kFloat32, torch::kFloat64, torch::kBFloat16}) {
        Classifier model;
        const auto where = dtype == torch::kFloat64 ? float64_home(device) : device;
        model->to(where, dtype);
        model->eval();
        const auto out = model->forward(torch::randn({2, 4}).to(where, dtype));
        print_field(std::string("As ") + c10::toString(dtype),
                    torchlings::format_bytes(state_bytes(*model)) + ", output " +
                        c10::toString(out.scalar_type()));
    }
    Classifier model;
    const auto before = model->norm->num_batches_tracked.scalar_type();
    model->to(torch::kFloat64);
    print_field("num_batches_tracked",
                std::string(c10::toString(before)) + " -> " +
                    c10::toString(model->norm->num_batches_tracked.scalar_type()));
}

// --- 6. Build the optimizer after moving ---
// An optimizer holds the parameter tensors and, after a step, its own state (momentum buffers)
// made where the parameters were then. Moving the model later moves the parameters, not that
// state.
torch::Tensor momentum_of(const torch::optim::SGD& optimizer, const torch::Tensor& parameter) {
    const auto& state = optimizer.state().at(parameter.unsafeGetTensorImpl());
    return static_cast<const torch::optim::SGDParamState&>(*state).momentum_buffer();
}

void one_step(Classifier& model, torch::optim::SGD& optimizer, const torch::Tensor& x) {
    optimizer.zero_grad();
    model->forward(x).square().mean().backward();
    optimizer.step();
}

void show_optimizer_order(const c10::Device& device) {
    print_section("Build the optimizer after moving");
    const auto options = torch::optim::SGDOptions(0.1).momentum(0.9);
    Classifier early;  // wrong order: optimizer, a step, then the move
    torch::optim::SGD early_optimizer(early->parameters(), options);
    one_step(early, early_optimizer, torch::randn({8, 4}));
    const auto home = float64_home(device);
    early->to(home, torch::kFloat64);
    const auto x = torch::randn({8, 4}, torch::TensorOptions(torch::kFloat64).device(home));
    print_field("Optimizer first, weight", describe(early->fc1->weight));
    print_field("Optimizer first, momentum",
                describe(momentum_of(early_optimizer, early->fc1->weight)));
    const auto step_error = error_of([&] { one_step(early, early_optimizer, x); });
    print_field("Optimizer first, next step",
                step_error + "; momentum " +
                    c10::toString(momentum_of(early_optimizer, early->fc1->weight).scalar_type()));
    Classifier late;  // right order: move, then build the optimizer
    late->to(home, torch::kFloat64);
    torch::optim::SGD late_optimizer(late->parameters(), options);
    one_step(late, late_optimizer, x);
    print_field("Optimizer last, momentum",
                describe(momentum_of(late_optimizer, late->fc1->weight)));
}

// --- 7. Inference: eval() and NoGradGuard ---
// eval() switches Dropout off and makes BatchNorm use its running statistics; NoGradGuard stops
// autograd from recording a graph (and keeping activations alive for it).
void show_inference(const c10::Device& device) {
    print_section("Inference: eval() and NoGradGuard");
    Classifier model;
    model->to(device);
    const auto x = torch::randn({8, 4}).to(device);
    const auto mean_before = model->norm->running_mean.clone();
    const auto train_a = model->forward(x);
    const auto train_b = model->forward(x);
    print_field("Train mode, calls agree", yes_no(torch::equal(train_a, train_b)));
    print_field("Train mode, stats change",
                yes_no(!torch::equal(mean_before, model->norm->running_mean)));
    print_field("Train mode, output grad", yes_no(train_a.requires_grad()));
    model->eval();
    const torch::NoGradGuard no_grad;  // scoped: gradient recording resumes at the closing brace
    const auto mean_eval = model->norm->running_mean.clone();
    const auto eval_a = model->forward(x);
    const auto eval_b = model->forward(x);
    print_field("Eval mode, calls agree", yes_no(torch::equal(eval_a, eval_b)));
    print_field("Eval mode, stats change",
                yes_no(!torch::equal(mean_eval, model->norm->running_mean)));
    print_field("Eval mode, output grad", yes_no(eval_a.requires_grad()));
    print_field("is_training() after eval()", yes_no(model->is_training()));
}

// --- 8. Save on one device, load onto another ---
// torch::load(model, path, device) is Python's map_location: a file saved from a GPU loads on a
// machine that has none. Load into a model of the same dtype as the file (see the README).
struct TempFile {
    std::filesystem::path path;
    TempFile() {
        std::random_device random;
        path = std::filesystem::temp_directory_path() /
               ("torchlings_lesson04_" + std::to_string(random()) + ".pt");
    }
    ~TempFile() {
        std::error_code ignored;  // a destructor must not throw
        std::filesystem::remove(path, ignored);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
};

double max_difference(const torch::Tensor& a, const torch::Tensor& b) {
    return (a.to(torch::kCPU, torch::kFloat64) - b.to(torch::kCPU, torch::kFloat64))
        .abs()
        .max()
        .item<double>();
}

void show_save_load(const c10::Device& device) {
    print_section("Save on one device, load onto another");
    std::filesystem::path removed;
    std::vector<std::pair<std::string, std::string>> gpu_fields;
    {
        const TempFile file;
        removed = file.path;
        Classifier saved;
        saved->to(device);
        torch::save(saved, file.path.string());
        Classifier loaded;
        torch::load(loaded, file.path.string(), torch::kCPU);
        print_field("Saved from", saved->fc1->weight.device().str());
        print_field("File size", torchlings::format_bytes(std::filesystem::file_size(file.path)));
        print_field("Loaded onto", loaded->fc1->weight.device().str());
        print_field("Largest difference",
                    std::to_string(max_difference(saved->fc1->weight, loaded->fc1->weight)));

        Classifier wide;  // float64 on the CPU, loaded into a float32 model on the CPU
        wide->to(torch::kFloat64);
        torch::save(wide, file.path.string());
        Classifier narrow;
        const auto error = error_of([&] { torch::load(narrow, file.path.string()); });
        print_field("Float64 file into float32",
                    error + ", dtype " + c10::toString(narrow->fc1->weight.scalar_type()));
        print_field("  largest difference",
                    std::to_string(max_difference(wide->fc1->weight, narrow->fc1->weight)));
        if (device.is_cuda()) {
            // Another device takes set_data() in LibTorch's reader, not set_(): see the README.
            Classifier on_gpu;
            torch::load(on_gpu, file.path.string(), device);
            gpu_fields = {{"Loaded onto", on_gpu->fc1->weight.device().str()},
                          {"dtype", c10::toString(on_gpu->fc1->weight.scalar_type())},
                          {"Largest difference",
                           std::to_string(max_difference(wide->fc1->weight, on_gpu->fc1->weight))}};
        }
    }
    print_field("Temporary file removed", yes_no(!std::filesystem::exists(removed)));
    if (!gpu_fields.empty()) {  // printed last: a GPU section runs to the next section header
        print_section("GPU: the float64 file loaded onto " + device.str());
        for (const auto& [key, value] : gpu_fields) {
            print_field(key, value);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::run_lesson(argc, argv, "torchlings lesson 04: model placement",
                                  [](const torchlings::LessonContext& context) {
                                      torch::manual_seed(0);  // the same numbers every run
                                      show_move(context.device);
                                      show_placement(context.device);
                                      show_inputs(context.device);
                                      show_unregistered(context.device);
                                      show_dtypes(context.device);
                                      show_optimizer_order(context.device);
                                      show_inference(context.device);
                                      show_save_load(context.device);
                                  });
}
