/// @file 06_data_loading.cpp
/// @brief Lesson 06 — data loading: Dataset, DataLoader, samplers, batches on the device.
///
/// What you will learn:
///   1. to write a Dataset (get() and size()), batch it with Stack, and choose a sampler;
///   2. to move every batch to the model's device in the loop, with pinned, non_blocking copies;
///   3. to overlap loading with compute using worker threads, and to read MNIST's idx files.
/// Run it: ./torchlings run 06            (or: build/dev/bin/lesson_06 --device cpu)
#include <torchlings/device.h>
#include <torchlings/lesson.h>

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using torchlings::first_line;
using torchlings::print_field;
using torchlings::print_section;

constexpr int64_t kClasses = 10;
constexpr int64_t kChannels = 3;
constexpr int64_t kSide = 16;

std::string join(const torch::Tensor& values) {
    const auto v = values.to(torch::kCPU).to(torch::kInt64).contiguous();
    std::ostringstream out;
    for (int64_t i = 0; i < v.numel(); ++i) {
        out << (i == 0 ? "" : " ") << v.data_ptr<int64_t>()[i];
    }
    return out.str();
}

std::string shape(const torch::Tensor& t) {
    std::ostringstream out;
    out << c10::toString(t.scalar_type()) << t.sizes() << " on " << t.device();
    return out.str();
}

// --- 1. A custom Dataset ---
// A map-style dataset answers two questions: how many samples (size) and "give me sample i"
// (get). Each sample is made from (seed, index) alone, with its own generator: worker threads
// call get() concurrently and in any order, so a shared random state would make the data depend
// on thread timing. `latency` stands in for reading a file from storage (a real dataset's cost).
class SyntheticImages : public torch::data::datasets::Dataset<SyntheticImages> {
  public:
    SyntheticImages(size_t count, uint64_t seed,
                    std::chrono::microseconds latency = std::chrono::microseconds(0))
        : count_(count), seed_(seed), latency_(latency) {}

    torch::data::Example<> get(size_t index) override {
        TORCH_CHECK(index < count_, "SyntheticImages: index ", index, " out of range (size ",
                    count_, ")");
        if (latency_.count() > 0) {
            std::this_thread::sleep_for(latency_);  // the "read from disk" part of a real get()
        }
        auto generator = at::make_generator<at::CPUGeneratorImpl>(seed_ * 1000003ULL + index);
        const auto label = static_cast<int64_t>(index) % kClasses;
        // A class-dependent mean plus noise: learnable, yet no two samples alike.
        auto image =
            torch::randn({kChannels, kSide, kSide}, generator) * 0.5 + static_cast<double>(label);
        return {image, torch::tensor(label, torch::kInt64)};
    }

    std::optional<size_t> size() const override { return count_; }

  private:
    size_t count_;
    uint64_t seed_;
    std::chrono::microseconds latency_;
};

void show_dataset() {
    print_section("A custom Dataset");
    SyntheticImages dataset(1000, 42);
    const auto sample = dataset.get(7);
    print_field("size()", std::to_string(*dataset.size()));
    print_field("get(7).data", shape(sample.data));
    print_field("get(7).target", join(sample.target) + " (" + shape(sample.target) + ")");
    print_field("get(7) twice, equal", dataset.get(7).data.equal(sample.data) ? "true" : "false");
}

// --- 2. Batches: Stack and DataLoaderOptions ---
// Without a transform a batch is std::vector<Example<>>; Stack<> turns it into one Example whose
// data and target gain a leading batch dimension. drop_last drops the short final batch.
void show_batching() {
    print_section("Batches: Stack and DataLoaderOptions");
    auto count_batches = [](bool drop_last) {
        auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
            SyntheticImages(100, 1).map(torch::data::transforms::Stack<>()),
            torch::data::DataLoaderOptions().batch_size(32).drop_last(drop_last));
        std::ostringstream sizes;
        int batches = 0;
        for (auto& batch : *loader) {
            sizes << (batches++ == 0 ? "" : " ") << batch.data.size(0);
        }
        return std::to_string(batches) + " (sizes " + sizes.str() + ")";
    };
    auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        SyntheticImages(100, 1).map(torch::data::transforms::Stack<>()),
        torch::data::DataLoaderOptions().batch_size(32));
    auto first = loader->begin();
    print_field("batch.data", shape(first->data));
    print_field("batch.target", shape(first->target));
    print_field("100 samples, batch 32", count_batches(false));
    print_field("... with drop_last(true)", count_batches(true));
}

// --- 3. Samplers: shuffled by default ---
// make_data_loader(ds, options) uses RandomSampler: unlike Python's DataLoader, the C++ default
// SHUFFLES. Ask for SequentialSampler when order matters (evaluation, debugging, tests).
void show_samplers() {
    print_section("Samplers");
    torch::manual_seed(0);  // RandomSampler draws its permutation from the global generator
    const auto options = torch::data::DataLoaderOptions().batch_size(10);
    auto shuffled = torch::data::make_data_loader(
        SyntheticImages(100, 1).map(torch::data::transforms::Stack<>()), options);
    auto ordered = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        SyntheticImages(100, 1).map(torch::data::transforms::Stack<>()), options);
    print_field("default (RandomSampler)", "labels " + join(shuffled->begin()->target));
    print_field("SequentialSampler", "labels " + join(ordered->begin()->target));
}

// --- 4. Every batch to the model's device, in the loop ---
// The loader produces CPU tensors; the model lives on `device`. Move data AND target, every
// batch, before using them: a forgotten .to() is "Expected all tensors to be on the same device".
void show_loop(const c10::Device& device) {
    print_section("Batches to the device");
    auto model = torch::nn::Linear(kChannels * kSide * kSide, kClasses);
    model->to(device);
    auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        SyntheticImages(256, 3).map(torch::data::transforms::Stack<>()),
        torch::data::DataLoaderOptions().batch_size(64));
    int64_t samples = 0;
    int64_t batches = 0;
    double loss_sum = 0;
    std::string where;
    torch::NoGradGuard no_grad;
    for (auto& batch : *loader) {
        const auto x = batch.data.to(device).flatten(1);
        const auto y = batch.target.to(device);
        loss_sum += torch::cross_entropy_loss(model->forward(x), y).item<double>();
        samples += x.size(0);
        ++batches;
        where = shape(x);
    }
    print_field("last batch on the device", where);
    print_field("samples seen", std::to_string(samples));
    print_field("mean loss (untrained)", std::to_string(loss_sum / static_cast<double>(batches)));
    try {
        // MNIST-style raw bytes: a uint8 batch must become float before a Linear layer.
        const auto raw = torch::zeros({2, kChannels * kSide * kSide}, torch::kUInt8).to(device);
        (void)model->forward(raw);
    } catch (const c10::Error& e) {
        print_field("forward on uint8 pixels", "error: " + first_line(e));
    }
}

// --- 5. Pinned staging buffers and non_blocking copies ---
// LibTorch's DataLoader has no pin_memory option. A collation that stacks AND pins runs in the
// worker threads, so that the main loop's .to(device, non_blocking) is a truly asynchronous
// copy. (It must be one transform: .map(Stack<>()).map(Pin()) does not compile in LibTorch.)
// Pinning is a CUDA driver service: without a GPU it throws, hence the check.
struct StackAndPin : torch::data::transforms::BatchTransform<std::vector<torch::data::Example<>>,
                                                             torch::data::Example<>> {
    torch::data::Example<> apply_batch(std::vector<torch::data::Example<>> samples) override {
        auto batch = torch::data::transforms::Stack<>().apply_batch(std::move(samples));
        if (torch::cuda::is_available()) {  // pinning only pays when a GPU will read the batch
            return {batch.data.pin_memory(), batch.target.pin_memory()};
        }
        return batch;
    }
};

void show_pinned(const c10::Device& device) {
    print_section("Pinned staging and non_blocking");
    const auto host = torch::rand({64, kChannels, kSide, kSide});
    try {
        const auto pinned = host.pin_memory();
        print_field("pin_memory()",
                    std::string("ok, is_pinned() ") + (pinned.is_pinned() ? "true" : "false"));
    } catch (const c10::Error& e) {
        print_field("pin_memory()", "error (needs CUDA): " + first_line(e));
    }
    auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        SyntheticImages(128, 5).map(StackAndPin()),
        torch::data::DataLoaderOptions().batch_size(64).workers(2));
    int64_t pinned_batches = 0;
    int64_t batches = 0;
    for (auto& batch : *loader) {
        pinned_batches += batch.data.is_pinned() ? 1 : 0;
        ++batches;
        // Asynchronous only from pinned memory to a GPU; elsewhere an ordinary copy (or none).
        const auto x = batch.data.to(device, /*non_blocking=*/true);
        (void)x.sum();  // queued on the same stream as the copy, so it sees the copied data
    }
    torchlings::synchronize(device);
    print_field("batches pinned by workers",
                std::to_string(pinned_batches) + " of " + std::to_string(batches));
    if (!torch::cuda::is_available()) {
        std::cout << "- No CUDA GPU here: pinning is unavailable, so StackAndPin passed batches "
                     "through and non_blocking copies were ordinary ones.\n";
    } else {
        std::cout << "- Batches were pinned in the worker threads; the copies to " << device.str()
                  << " were asynchronous.\n";
    }
}

// --- 6. Workers: overlap loading with compute ---
// Workers are threads; each prefetches whole batches (up to max_jobs = 2 x workers in flight)
// while the main thread computes. Loading here costs 200 us of simulated storage latency plus
// the generation of each sample; the "model step" is a matrix product.
double samples_per_second(size_t workers, const c10::Device& device) {
    constexpr size_t kSamples = 1024;
    constexpr size_t kBatch = 64;
    auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        SyntheticImages(kSamples, 7, std::chrono::microseconds(200))
            .map(torch::data::transforms::Stack<>()),
        torch::data::DataLoaderOptions().batch_size(kBatch).workers(workers));
    const auto weights = torch::randn({kChannels * kSide * kSide, 512}, device);
    torch::NoGradGuard no_grad;
    const auto start = std::chrono::steady_clock::now();
    int64_t seen = 0;
    for (auto& batch : *loader) {
        const auto x = batch.data.to(device).flatten(1);
        (void)torch::relu(x.matmul(weights)).sum();  // the "training step" the loader overlaps
        seen += x.size(0);
    }
    torchlings::synchronize(device);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    return static_cast<double>(seen) / elapsed.count();
}

void show_throughput(const c10::Device& device) {
    print_section("Throughput against workers (samples/s)");
    double base = 0;
    for (const size_t workers : std::array<size_t, 4>{0, 1, 2, 4}) {
        const double rate = samples_per_second(workers, device);
        if (workers == 0) {
            base = rate;
        }
        std::ostringstream value;
        value << std::fixed << std::setprecision(0) << rate << "  (x" << std::setprecision(2)
              << rate / base << ")";
        print_field("workers(" + std::to_string(workers) + ")", value.str());
    }
    std::cout << "- One run on this machine (" << std::thread::hardware_concurrency()
              << " hardware threads); benchmarks/bench_data_loading.cpp measures it properly.\n";
}

// --- 7. MNIST's idx files ---
// An idx file: a 4-byte big-endian magic (0x00000803 images, 0x00000801 labels), one 4-byte
// big-endian size per dimension, then raw uint8 values. This reader is the exercise
// read_idx_images in a few lines.
uint32_t read_be32(std::ifstream& in) {
    std::array<unsigned char, 4> b{};
    TORCH_CHECK(in.read(reinterpret_cast<char*>(b.data()), 4), "idx: truncated header");
    return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | b[3];
}

torch::Tensor read_idx(const std::filesystem::path& path, uint32_t magic) {
    std::ifstream in(path, std::ios::binary);
    TORCH_CHECK(in, "idx: cannot open ", path.string());
    const uint32_t got = read_be32(in);
    TORCH_CHECK(got == magic, "idx: bad magic in ", path.string());
    std::vector<int64_t> dims(magic & 0xFFU);
    for (auto& d : dims) {
        d = read_be32(in);
    }
    auto out = torch::empty(dims, torch::kUInt8);
    TORCH_CHECK(in.read(reinterpret_cast<char*>(out.data_ptr<uint8_t>()), out.numel()),
                "idx: truncated data in ", path.string());
    return out;
}

void write_be32(std::ofstream& out, uint32_t v) {
    const std::array<char, 4> b{static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                                static_cast<char>(v >> 8), static_cast<char>(v)};
    out.write(b.data(), 4);
}

void show_idx() {
    print_section("MNIST idx files");
    const auto dir = std::filesystem::temp_directory_path() / "torchlings_lesson06_idx";
    std::filesystem::create_directories(dir);
    {  // 3 images of 28 x 28 and their labels, named as MNIST names them
        std::ofstream images(dir / "train-images-idx3-ubyte", std::ios::binary);
        write_be32(images, 0x00000803);
        for (const uint32_t d : {3U, 28U, 28U}) {
            write_be32(images, d);
        }
        for (int i = 0; i < 3 * 28 * 28; ++i) {
            images.put(static_cast<char>(i % 256));
        }
        std::ofstream labels(dir / "train-labels-idx1-ubyte", std::ios::binary);
        write_be32(labels, 0x00000801);
        write_be32(labels, 3);
        for (const char label : {4, 0, 9}) {
            labels.put(label);
        }
    }
    const auto images = read_idx(dir / "train-images-idx3-ubyte", 0x00000803);
    const auto labels = read_idx(dir / "train-labels-idx1-ubyte", 0x00000801);
    print_field("our reader: images", shape(images));
    print_field("our reader: labels", join(labels));
    try {
        torch::data::datasets::MNIST mnist(dir.string());
        print_field("datasets::MNIST", std::to_string(*mnist.size()) + " samples");
    } catch (const c10::Error& e) {
        print_field("datasets::MNIST", "error: " + first_line(e));
    }
    std::filesystem::remove_all(dir);
}

// --- 8. What it costs ---
void show_costs() {
    print_section("What it costs");
    std::cout << "- Each worker is a thread with its own copy of the dataset: keep datasets cheap "
                 "to copy (share big tensors, do not duplicate them).\n"
                 "- Workers help when get() waits (storage) or when cores are idle; past the "
                 "number of cores, CPU-bound loading gains nothing.\n"
                 "- A batch copied to the GPU costs bytes / bandwidth every step: pinned memory "
                 "and non_blocking let that copy overlap the previous step's compute.\n";
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::run_lesson(argc, argv, "torchlings lesson 06: data loading",
                                  [](const torchlings::LessonContext& context) {
                                      show_dataset();
                                      show_batching();
                                      show_samplers();
                                      show_loop(context.device);
                                      show_pinned(context.device);
                                      show_throughput(context.device);
                                      show_idx();
                                      show_costs();
                                  });
}
