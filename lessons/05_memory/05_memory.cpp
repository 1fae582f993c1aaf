/// @file 05_memory.cpp
/// @brief Lesson 05 — memory management: where a tensor's bytes live, and when they go away.
///
/// What you will learn:
///   1. to count a tensor's and a model's bytes: parameters, gradients, Adam's state, activations;
///   2. that storage is freed when its last reference goes (C++ scope is Python's `del`), and
///      what the CUDA caching allocator's allocated / reserved / peak / empty_cache mean;
///   3. to survive an out-of-memory error by retrying smaller, and not to keep graphs alive.
/// Run it: ./torchlings run 05            (or: build/dev/bin/lesson_05 --device cpu)
#include <torchlings/device.h>
#include <torchlings/lesson.h>

#include <torch/torch.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

namespace {

std::string yes_no(bool value) { return value ? "true" : "false"; }

std::string bytes_text(std::uint64_t bytes) {
    return std::to_string(bytes) + " bytes (" + torchlings::format_bytes(bytes) + ")";
}

// --- 1. The bytes of a tensor ---
// A dense tensor holds numel() elements of element_size() bytes: that product is nbytes(). A view
// (slice, transpose, view) makes a new tensor header over the SAME storage: it costs no new bytes.
void show_tensor_bytes(const c10::Device& device) {
    torchlings::print_section("1. The bytes of a tensor");
    const auto t = torch::zeros({1024, 1024}, torch::TensorOptions().device(device));
    const auto numel = static_cast<std::uint64_t>(t.numel());
    const auto element = static_cast<std::uint64_t>(t.element_size());
    torchlings::print_field("Tensor", "t = zeros({1024, 1024}), float32");
    torchlings::print_field("numel x element_size", std::to_string(numel) + " x " +
                                                        std::to_string(element) + " = " +
                                                        bytes_text(numel * element));
    torchlings::print_field("nbytes()", bytes_text(t.nbytes()));
    const auto half = t.slice(0, 0, 512);  // rows 0..511, a view
    torchlings::print_field("Rows 0..511 (a view)", bytes_text(half.nbytes()));
    torchlings::print_field("Its storage's nbytes()", bytes_text(half.storage().nbytes()));
    torchlings::print_field("Same storage as t", yes_no(half.storage().is_alias_of(t.storage())));
    const auto copy = half.clone();  // a real copy: new storage of exactly its own size
    torchlings::print_field("A clone's storage", bytes_text(copy.storage().nbytes()));
}

// --- 2. References, views and scope ---
// A tensor is a reference-counted handle. Copying the handle shares the TensorImpl; a view shares
// only the storage. The bytes are returned the moment the storage's last reference goes: at the end
// of a scope, or when a handle is reset. That is C++'s `del`; no gc.collect() is ever needed.
void show_references() {
    torchlings::print_section("2. References, views and scope");
    const auto counts = [](const torch::Tensor& t) {
        return "use_count " + std::to_string(t.use_count()) + ", storage use_count " +
               std::to_string(t.storage().use_count());
    };
    c10::weak_intrusive_ptr<c10::StorageImpl> watch{c10::intrusive_ptr<c10::StorageImpl>()};
    {
        auto a = torch::ones({256, 256});
        watch = a.storage().getWeakStorageImpl();  // observes the storage without keeping it
        torchlings::print_field("After a = ones({256, 256})", counts(a));
        auto b = a;  // `b = a` in Python: the same tensor, one more reference
        torchlings::print_field("After b = a", counts(a));
        // A view: a new tensor over the same storage. It also records its base tensor (autograd's
        // view tracking), which is why a.use_count() goes up too.
        auto row = a[0];
        torchlings::print_field("After row = a[0]", counts(a));
        b.reset();  // Python's `del b`
        torchlings::print_field("After b.reset()", counts(a));
        a.reset();  // `del a`: the bytes stay, because the view `row` still uses the storage
        torchlings::print_field("After a.reset()", "storage freed: " + yes_no(watch.expired()));
    }  // `row` is destroyed here: the last reference, so the storage is freed right now
    torchlings::print_field("After the scope ends", "storage freed: " + yes_no(watch.expired()));
}

// --- 3. The CUDA caching allocator ---
// cudaMalloc and cudaFree go through the driver, and cudaFree waits for the device's queued work,
// so LibTorch keeps freed CUDA blocks in a cache and reuses them. "Allocated" is what live tensors
// use; "reserved" is what the cache holds from the driver (allocated plus cached free blocks);
// nvidia-smi shows reserved plus the CUDA context. empty_cache() gives the cached free blocks of
// every GPU back: it frees nothing a tensor holds.
void show_caching_allocator(const c10::Device& device) {
    torchlings::print_section("3. The CUDA caching allocator");
    const auto stats = torchlings::memory_stats(device);
    torchlings::print_field("Device", device.str());
    torchlings::print_field("Allocator statistics",
                            stats.applicable ? "applicable" : "not applicable");
    if (!stats.applicable) {
        std::cout << "- " << stats.reason << ".\n"
                  << "- allocated, reserved, peak, free and total memory are figures of a CUDA "
                     "GPU: run this lesson on a machine with one (--device cuda) to see them.\n";
        return;
    }
    std::cout << "- the figures are in the \"== GPU caching allocator ==\" section below.\n";
}

void show_gpu_allocator(const c10::Device& device) {
    if (!device.is_cuda()) {
        return;
    }
    const auto show = [&](const std::string& when) {
        const auto s = torchlings::memory_stats(device);
        torchlings::print_field(when, "allocated " + torchlings::format_bytes(s.allocated) +
                                          ", reserved " + torchlings::format_bytes(s.reserved) +
                                          ", peak " + torchlings::format_bytes(s.peak_allocated));
    };
    torchlings::print_section("GPU caching allocator");
    torchlings::empty_cache();
    torchlings::reset_peak_memory(device);
    show("At the start");
    {
        auto big =
            torch::empty({64, 1024, 1024}, torch::TensorOptions().device(device));  // 256 MiB
        show("With 256 MiB alive");
    }
    show("After it went out of scope");
    torchlings::empty_cache();
    show("After empty_cache()");
    torchlings::reset_peak_memory(device);
    show("After reset_peak_memory()");
    const auto s = torchlings::memory_stats(device);
    torchlings::print_field("Free / total on the device", torchlings::format_bytes(s.free) + " / " +
                                                              torchlings::format_bytes(s.total));
}

// --- 4. Estimating a model's memory ---
// Training keeps, per parameter: the parameter, its gradient, and the optimizer's state (SGD: none;
// SGD with momentum: one tensor; Adam: two, exp_avg and exp_avg_sq). So Adam training costs 4x the
// parameter bytes before a single activation, and activations grow with the batch.
std::uint64_t sum_nbytes(const std::vector<torch::Tensor>& tensors) {
    std::uint64_t total = 0;
    for (const auto& t : tensors) {
        total += t.defined() ? t.nbytes() : 0;
    }
    return total;
}

void show_model_memory(const c10::Device& device) {
    torchlings::print_section("4. Estimating a model's memory");
    torch::nn::Sequential net(torch::nn::Linear(784, 256), torch::nn::ReLU(),
                              torch::nn::Linear(256, 10));
    net->to(device);
    std::int64_t count = 0;
    for (const auto& p : net->parameters()) {
        count += p.numel();
    }
    const auto param_bytes = static_cast<std::uint64_t>(count) * sizeof(float);
    torchlings::print_field("Model", "Linear(784, 256), ReLU, Linear(256, 10), float32");
    torchlings::print_field("Parameters",
                            std::to_string(count) + " x 4 bytes = " + bytes_text(param_bytes));
    torchlings::print_field("Estimate with Adam (4x)", bytes_text(4 * param_bytes));

    // Now the real tensors: one training step creates the gradients and Adam's state.
    torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
    constexpr std::int64_t kBatch = 64;
    auto x = torch::randn({kBatch, 784}, torch::TensorOptions().device(device));
    std::uint64_t activation_bytes = 0;
    auto h = x;
    for (auto& layer : *net) {  // Sequential's forward by hand, to weigh each layer's output
        h = layer.forward(h);
        activation_bytes += h.nbytes();
    }
    h.pow(2).mean().backward();
    adam.step();
    std::vector<torch::Tensor> grads;
    std::vector<torch::Tensor> state;
    for (const auto& p : net->parameters()) {
        grads.push_back(p.grad());
    }
    for (const auto& item : adam.state()) {
        const auto& s = static_cast<const torch::optim::AdamParamState&>(*item.second);
        state.push_back(s.exp_avg());
        state.push_back(s.exp_avg_sq());
    }
    const auto measured = sum_nbytes(net->parameters()) + sum_nbytes(grads) + sum_nbytes(state);
    torchlings::print_field("Measured parameters", bytes_text(sum_nbytes(net->parameters())));
    torchlings::print_field("Measured gradients", bytes_text(sum_nbytes(grads)));
    torchlings::print_field("Measured Adam state", bytes_text(sum_nbytes(state)) + " in " +
                                                       std::to_string(state.size()) + " tensors");
    torchlings::print_field("Measured total", bytes_text(measured));
    torchlings::print_field("Estimate matches", yes_no(measured == 4 * param_bytes));
    torchlings::print_field("Layer outputs, batch 64", bytes_text(activation_bytes));
}

// --- 5. Out of memory: catch, shrink, retry ---
// A CUDA OOM throws c10::OutOfMemoryError, a subclass of c10::Error: catch it FIRST. Everything the
// failed attempt allocated was owned by tensors in its scope, so unwinding frees it: there is
// nothing to clean up by hand. Then retry with half the batch. (A real GPU is needed for a real
// CUDA OOM; here the step is a stand-in that throws the same exception type above a fixed batch
// size.)
std::int64_t run_halving(std::int64_t batch, const std::function<void(std::int64_t)>& step,
                         std::vector<std::string>& log) {
    while (true) {
        try {
            step(batch);
            log.push_back(std::to_string(batch) + " ok");
            return batch;
        } catch (const c10::OutOfMemoryError&) {
            log.push_back(std::to_string(batch) + " OOM");
            if (batch == 1) {
                throw;  // nothing smaller to try
            }
            batch /= 2;
        }
    }
}

void show_out_of_memory(const c10::Device& device) {
    torchlings::print_section("5. Out of memory: catch, shrink, retry");
    // A real failure on the CPU: 2^50 float32 is 4 PiB, more than any machine has.
    try {
        const auto huge = torch::empty({std::int64_t{1} << 50}, torch::TensorOptions());
        torchlings::print_field("4 PiB on the CPU", "allocated?!");
    } catch (const c10::OutOfMemoryError& e) {
        torchlings::print_field("4 PiB on the CPU threw", "c10::OutOfMemoryError");
        std::cout << "- " << e.what_without_backtrace() << '\n';
    } catch (const c10::Error& e) {
        torchlings::print_field("4 PiB on the CPU threw", "c10::Error, not OutOfMemoryError");
        std::cout << "- " << e.what_without_backtrace() << '\n';
    }
    // The retry loop, with a step that "fits" at most 48 samples.
    constexpr std::int64_t kFits = 48;
    const auto fake_step = [&](std::int64_t batch) {
        auto activations = torch::empty({batch, 16}, torch::TensorOptions().device(device));
        if (batch > kFits) {  // `activations` is freed by the unwinding, before the retry
            throw c10::OutOfMemoryError(
                {__func__, __FILE__, static_cast<std::uint32_t>(__LINE__)},
                "stand-in: batch " + std::to_string(batch) + " does not fit");
        }
    };
    std::vector<std::string> log;
    const auto fitted = run_halving(256, fake_step, log);
    std::string attempts;
    for (const auto& entry : log) {
        attempts += (attempts.empty() ? "" : ", ") + entry;
    }
    torchlings::print_field("Start batch, fits up to", "256, " + std::to_string(kFits));
    torchlings::print_field("Attempts", attempts);
    torchlings::print_field("Trained with batch", std::to_string(fitted));
}

void show_gpu_out_of_memory(const c10::Device& device) {
    if (!device.is_cuda()) {
        return;
    }
    torchlings::print_section("GPU out of memory");
    const auto before = torchlings::memory_stats(device);
    // total / 2 float32 elements are twice the whole device: this cannot fit, whatever else runs.
    const auto elements = static_cast<std::int64_t>(before.total / 2);
    try {
        const auto too_big = torch::empty({elements}, torch::TensorOptions().device(device));
        torchlings::print_field("Allocating 2x the device", "succeeded?!");
    } catch (const c10::OutOfMemoryError& e) {
        torchlings::print_field("Allocating 2x the device threw", "c10::OutOfMemoryError");
        std::cout << "- " << e.what_without_backtrace() << '\n';
    }
    const auto after = torchlings::memory_stats(device);
    torchlings::print_field("Allocated before / after",
                            torchlings::format_bytes(before.allocated) + " / " +
                                torchlings::format_bytes(after.allocated));
}

// --- 6. Holding on to graphs ---
// `total = total + loss` with a loss that requires grad builds a NEW graph node that points at the
// loss's whole graph, and that graph holds every tensor it saved for backward. Over an epoch that
// is every step's activations. Accumulate loss.item() (a double) or loss.detach() instead.
std::size_t graph_nodes(const torch::Tensor& t) {
    // grad_fn() is a c10::intrusive_ptr<Node> in LibTorch 2.15 (a std::shared_ptr in older 2.x).
    using NodePtr = std::decay_t<decltype(t.grad_fn())>;
    std::unordered_set<const torch::autograd::Node*> seen;
    std::vector<NodePtr> todo;
    if (t.grad_fn()) {
        todo.push_back(t.grad_fn());
    }
    while (!todo.empty()) {
        const auto node = todo.back();
        todo.pop_back();
        if (!seen.insert(node.get()).second) {
            continue;
        }
        for (const auto& edge : node->next_edges()) {
            if (edge.function) {
                todo.push_back(edge.function);
            }
        }
    }
    return seen.size();
}

void show_graph_holding(const c10::Device& device) {
    torchlings::print_section("6. Holding on to graphs");
    const auto options = torch::TensorOptions().device(device);
    auto w = torch::randn({128, 128}, options).requires_grad_();
    auto kept = torch::zeros({}, options);
    auto detached = torch::zeros({}, options);
    double as_double = 0.0;
    std::string growth;
    constexpr int kSteps = 5;
    for (int step = 1; step <= kSteps; ++step) {
        const auto x = torch::randn({32, 128}, options);
        const auto loss = torch::relu(x.matmul(w)).pow(2).mean();
        kept = kept + loss;                   // keeps every step's graph alive
        detached = detached + loss.detach();  // just the number, on the device
        as_double += loss.item<double>();     // the number on the host (synchronises)
        growth += (growth.empty() ? "" : ", ") + std::to_string(graph_nodes(kept));
    }
    torchlings::print_field("Without detach()",
                            "requires_grad " + yes_no(kept.requires_grad()) + ", grad_fn " +
                                (kept.grad_fn() ? kept.grad_fn()->name() : "none"));
    torchlings::print_field("Graph nodes, steps 1 to 5", growth);
    torchlings::print_field("With loss.detach()",
                            "requires_grad " + yes_no(detached.requires_grad()) + ", nodes " +
                                std::to_string(graph_nodes(detached)));
    torchlings::print_field("Same value", yes_no(std::abs(detached.item<double>() - as_double) <
                                                 1e-6 * std::abs(as_double) + 1e-9));
}

// --- Notes: what it costs ---
void show_notes() {
    torchlings::print_section("Notes");
    std::cout << "- training with Adam needs about 4x the parameter bytes, plus activations that "
                 "grow linearly with the batch.\n"
              << "- empty_cache() (every GPU's cache) helps only memory the cache does not "
                 "serve: raw cudaMalloc, NCCL, other libraries, other processes. Tensors never "
                 "need it.\n"
              << "- loss.item() copies one number to the host and waits for the GPU: call it "
                 "every N steps if that wait shows up in a profile.\n";
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::run_lesson(argc, argv, "torchlings lesson 05: memory management",
                                  [](const torchlings::LessonContext& context) {
                                      show_tensor_bytes(context.device);
                                      show_references();
                                      show_caching_allocator(context.device);
                                      show_gpu_allocator(context.device);
                                      show_model_memory(context.device);
                                      show_out_of_memory(context.device);
                                      show_gpu_out_of_memory(context.device);
                                      show_graph_holding(context.device);
                                      show_notes();
                                  });
}
