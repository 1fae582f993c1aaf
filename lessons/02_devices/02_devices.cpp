/// @file 02_devices.cpp
/// @brief Lesson 02 — device objects: name a device, check it exists, make it current, use it.
///
/// What you will learn:
///   1. to build a torch::Device from a type and index or from a string, read its parts, and
///      compare devices without the "cuda" != "cuda:0" surprise;
///   2. which strings LibTorch rejects (with its real messages), and why "cuda:7" parses anyway;
///   3. to switch the current device for a scope (DeviceGuard) and to create tensors directly on
///      a device with TensorOptions, and what the detour through .to() costs.
/// Run it: ./torchlings run 02            (or: build/dev/bin/lesson_02 --device cpu)
#include <torchlings/device.h>
#include <torchlings/lesson.h>
#include <torchlings/timer.h>

#include <c10/core/DeviceGuard.h>
#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string yes_no(bool value) { return value ? "true" : "false"; }

// Runs `attempt`; returns its text, or the first line of the c10::Error it threw.
std::string result_or_error(const std::function<std::string()>& attempt) {
    try {
        return attempt();
    } catch (const c10::Error& e) {
        // first_line(c10::Error): the message alone, without LibTorch's C++ stack.
        return "c10::Error: " + torchlings::first_line(e);
    } catch (const std::exception& e) {
        return "error: " + torchlings::first_line(e.what());
    }
}

// The device the backend of `type` calls current: the very query a DeviceGuard makes when it
// saves the device to restore. For CUDA it is what torch.cuda.current_device() returns; the
// public spelling of that is at::accelerator::getDeviceIndex(). Throws where the backend cannot
// answer (CUDA without a GPU).
torch::Device current_device(torch::DeviceType type) {
    return c10::impl::getDeviceGuardImpl(type)->getDevice();
}

std::string describe_tensor(const torch::Tensor& t) {
    std::ostringstream out;
    out << c10::toString(t.scalar_type()) << t.sizes() << " on " << t.device();
    return out.str();
}

// Every digit of a double: shows whether 0.1 is the float64 nearest 0.1 or a widened float32.
std::string all_digits(double value) {
    std::ostringstream out;
    out << std::setprecision(17) << value;
    return out.str();
}

std::string milliseconds(double ms) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(3) << ms << " ms";
    return out.str();
}

// --- 1. Making a device ---
// torch.device("cuda", 1) and torch.device("cuda:1") have the same two C++ spellings. A type
// with no index means "whichever device of that type is current when it is used".
void show_making(const torchlings::LessonContext& context) {
    torchlings::print_section("1. Making a device");
    torchlings::print_field("Device(kCUDA, 1)", torch::Device(torch::kCUDA, 1).str());
    torchlings::print_field("Device(\"cuda:1\")", torch::Device("cuda:1").str());
    torchlings::print_field("Device(kCPU)", torch::Device(torch::kCPU).str());
    torchlings::print_field("Device(\"cuda\")", torch::Device("cuda").str());
    torchlings::print_field("Chosen by --device", context.device.str());
}

// --- 2. The parts of a device ---
// index() is a c10::DeviceIndex, an 8-bit integer: cast it to int before printing it. "mps"
// (Apple's GPUs) parses on every machine, as "cuda" does without a GPU: parsing checks the text.
void show_parts() {
    torchlings::print_section("2. The parts of a device");
    for (const char* text : {"cpu", "cuda", "cuda:1", "mps"}) {
        const torch::Device device(text);
        std::ostringstream parts;
        parts << "type() " << device.type() << ", index() " << static_cast<int>(device.index())
              << ", has_index() " << yes_no(device.has_index()) << ", is_cuda() "
              << yes_no(device.is_cuda()) << ", str() \"" << device.str() << '"';
        torchlings::print_field(text, parts.str());
    }
}

// --- 3. Equality ---
// operator== compares the type and the index, nothing else: "cuda" (no index) is not "cuda:0",
// even on a machine where the current GPU is 0.
void show_equality(const torchlings::LessonContext& context) {
    torchlings::print_section("3. Equality");
    torchlings::print_field("cuda == cuda:0",
                            yes_no(torch::Device("cuda") == torch::Device("cuda:0")));
    torchlings::print_field("cpu == cpu:0", yes_no(torch::Device("cpu") == torch::Device("cpu:0")));
    torchlings::print_field("cuda:1 == Device(kCUDA, 1)",
                            yes_no(torch::Device("cuda:1") == torch::Device(torch::kCUDA, 1)));
    // A tensor's device always has an index on a GPU (cuda:0, never cuda): comparing it with
    // Device(kCUDA) is always false there.
    const auto t = torch::zeros({2}, torch::TensorOptions().device(context.device));
    const torch::Device type_only(t.device().type());
    torchlings::print_field("A tensor's device()", t.device().str() + "; == Device(" +
                                                       type_only.str() + ") is " +
                                                       yes_no(t.device() == type_only));
}

// --- 4. Malformed strings ---
// The parser accepts `type` or `type:N` (N without sign or leading zero) and throws c10::Error
// otherwise. It does not check N against the 8-bit DeviceIndex: large numbers wrap.
void show_malformed() {
    torchlings::print_section("4. Malformed strings");
    for (const char* text : {"gpu", "cuda:abc", "cuda:01", ""}) {
        torchlings::print_field(std::string("Device(\"") + text + "\")", result_or_error([&] {
                                    return "parsed as " + torch::Device(text).str();
                                }));
    }
    for (const char* text : {"cuda:256", "cuda:255"}) {
        torchlings::print_field(std::string("Device(\"") + text + "\")", result_or_error([&] {
                                    return "no error, parsed as \"" + torch::Device(text).str() +
                                           "\"";
                                }));
    }
    std::cout << "- DeviceIndex is 8 bits: 256 is stored as 0 and 255 as -1, which means"
                 " \"no index\". Check that str() gives back the text you parsed.\n";
}

// --- 5. A device that parses may not exist ---
// Nothing in torch::Device knows how many GPUs there are; the first tensor made on a missing GPU
// is where it fails. Compare the index with torch::cuda::device_count() yourself.
void show_existence() {
    torchlings::print_section("5. A device that parses may not exist");
    const torch::Device seven("cuda:7");
    const int gpus = static_cast<int>(torch::cuda::device_count());
    torchlings::print_field("Device(\"cuda:7\")", "parsed as " + seven.str());
    torchlings::print_field("CUDA devices here", std::to_string(gpus));
    torchlings::print_field("cuda:7 exists here",
                            yes_no(seven.index() >= 0 && seven.index() < gpus));
    torchlings::print_field("choose_device(\"cuda:7\")", result_or_error([] {
                                return "chose " + torchlings::choose_device("cuda:7").str();
                            }));
    const std::string first_use = result_or_error([&] {
        return "made " + describe_tensor(torch::zeros({2}, torch::TensorOptions().device(seven)));
    });
    std::cout << "- First use, torch::zeros({2}, TensorOptions().device(cuda:7)): " << first_use
              << '\n';
}

// --- 6. The current device and scoped switching ---
// c10::DeviceGuard is `with torch.cuda.device(i):` — it saves the current device, switches, and
// switches back in its destructor, also when an exception leaves the scope. On the CPU there is
// only one device, so it is a no-op; for a GPU that is not there it throws.
void show_guards(const torchlings::LessonContext& context) {
    torchlings::print_section("6. The current device and scoped switching");
    torchlings::print_field("Current CPU device", current_device(torch::kCPU).str());
    {
        const c10::DeviceGuard guard{torch::Device(torch::kCPU)};
        torchlings::print_field("Inside DeviceGuard(cpu)", current_device(torch::kCPU).str());
    }
    torchlings::print_field("After the guard", current_device(torch::kCPU).str());
    {
        const c10::OptionalDeviceGuard unset;  // e.g. for a tensor that may be undefined
        torchlings::print_field("OptionalDeviceGuard()",
                                unset.current_device().has_value() ? "set" : "unset: a no-op");
    }
    {
        // The kernel-writer's idiom: make the inputs' device current, whatever it is.
        const auto t = torch::ones({2}, torch::TensorOptions().device(context.device));
        const c10::OptionalDeviceGuard guard(t.device());
        torchlings::print_field("Guarded by t.device()", current_device(t.device().type()).str());
        // `with torch.cuda.device(i): torch.randn(...)` makes a CPU tensor all the same: a guard
        // picks the GPU that an index-less "cuda" means; a factory without a device uses the CPU.
        torchlings::print_field("randn() inside that guard", torch::randn({3, 4}).device().str());
    }
    const int gpus = static_cast<int>(torch::cuda::device_count());
    const std::string cuda_guard = result_or_error([gpus] {
        if (gpus == 0) {
            // Shown for its error: a guard for a GPU that is not there throws at construction.
            const c10::DeviceGuard guard(torch::Device(torch::kCUDA, 0));
            return std::string("DeviceGuard(cuda:0) did not throw");
        }
        const std::string before = current_device(torch::kCUDA).str();
        const torch::Device last(torch::kCUDA, static_cast<c10::DeviceIndex>(gpus - 1));
        std::string inside;
        {
            const c10::DeviceGuard guard(last);
            inside = current_device(torch::kCUDA).str();
        }
        return "current " + before + ", inside DeviceGuard(" + last.str() + ") " + inside +
               ", after " + current_device(torch::kCUDA).str();
    });
    std::cout << "- DeviceGuard(cuda:" << (gpus == 0 ? 0 : gpus - 1)
              << ") on this machine: " << cuda_guard << '\n';
}

// --- 7. Tensors made on a device ---
// C++ has no torch.set_default_device: every factory takes TensorOptions, so say the device and
// dtype where the tensor is made. Making it elsewhere and converting costs a second tensor and a
// copy, and a dtype conversion cannot restore precision that float32 already lost.
void show_options(const torchlings::LessonContext& context) {
    torchlings::print_section("7. Tensors made on a device");
    const auto options = torch::TensorOptions().device(context.device).dtype(torch::kFloat64);
    const auto t = torch::full({2, 3}, 0.1, options);
    torchlings::print_field("TensorOptions", "device(" + context.device.str() + ").dtype(kDouble)");
    torchlings::print_field("full({2, 3}, 0.1, options)", describe_tensor(t));
    torchlings::print_field("Its first element", all_digits(t[0][0].item<double>()));
    const auto detour = torch::full({2, 3}, 0.1).to(context.device, torch::kFloat64);
    torchlings::print_field("float32, then .to(kDouble)", all_digits(detour[0][0].item<double>()));
    const auto buffer = torch::zeros({4}, t.options());
    torchlings::print_field("zeros({4}, t.options())", describe_tensor(buffer));
}

// --- 8. What the detour costs ---
// Three ways to the same float64 tensor on the chosen device. The napkin math comes first (what
// each way allocates and moves), then the time, measured with the course's timer (CUDA events
// on a GPU, a synchronised clock elsewhere). The tensor is large (32 MiB) so that the work, not
// the scheduler of a busy machine, decides the figures; the best of the runs is reported
// because on a shared machine noise only ever adds time.
void show_cost(const torchlings::LessonContext& context) {
    torchlings::print_section("8. What the detour costs");
    constexpr int kRepetitions = 10;
    constexpr int64_t kSide = 2048;
    const std::vector<int64_t> shape = {kSide, kSide};
    const std::uint64_t f64_bytes = kSide * kSide * sizeof(double);
    const std::uint64_t f32_bytes = kSide * kSide * sizeof(float);
    const torch::Device device = context.device;
    const auto on_device = torch::TensorOptions().device(device).dtype(torch::kFloat64);
    const auto time_it = [&](const std::function<torch::Tensor()>& make) {
        const auto summary = torchlings::time_on_device(
            device, [&] { (void)make(); }, kRepetitions);
        return milliseconds(summary.min_ms);
    };
    const auto mib = [](std::uint64_t bytes) { return torchlings::format_bytes(bytes); };
    torchlings::print_field("Tensor", "[2048, 2048] float64 (" + mib(f64_bytes) + ") on " +
                                          device.str() + ", best of " +
                                          std::to_string(kRepetitions) + " runs");
    torchlings::print_field("Made there with options",
                            time_it([&] { return torch::full(shape, 0.1, on_device); }) +
                                "; 1 tensor, " + mib(f64_bytes) + " written");
    torchlings::print_field(
        "float32, then .to(kDouble)",
        time_it([&] {
            return torch::full(shape, 0.1, torch::TensorOptions().device(device))
                .to(torch::kFloat64);
        }) + "; 2 tensors, " +
            mib(f32_bytes) + " written, read back, " + mib(f64_bytes) + " written");
    // .to() returns the tensor itself when the device and dtype already match: on the CPU the
    // third way is the first one; on a GPU it adds a host tensor and a copy over the bus.
    const std::string third_route =
        device.is_cpu()
            ? "1 tensor, " + mib(f64_bytes) + " written (.to(cpu) returns it as is)"
            : "2 tensors, " + mib(f64_bytes) + " written on the host, copied to " + device.str();
    torchlings::print_field(
        "CPU, then .to(device)",
        time_it([&] { return torch::full(shape, 0.1, torch::kFloat64).to(device); }) + "; " +
            third_route);
}

// --- 9. try_gpu and try_all_gpus ---
// The "Dive into Deep Learning" helpers, in C++: ask for a GPU, fall back to the CPU, and never
// hand back an empty list.
torch::Device try_gpu(int i) {
    if (i >= 0 && i < static_cast<int>(torch::cuda::device_count())) {
        return {torch::kCUDA, static_cast<c10::DeviceIndex>(i)};
    }
    return torch::Device(torch::kCPU);
}

std::vector<torch::Device> try_all_gpus() {
    std::vector<torch::Device> devices;
    const int gpus = static_cast<int>(torch::cuda::device_count());
    for (int i = 0; i < gpus; ++i) {
        devices.emplace_back(torch::kCUDA, static_cast<c10::DeviceIndex>(i));
    }
    if (devices.empty()) {
        devices.emplace_back(torch::kCPU);
    }
    return devices;
}

void show_helpers() {
    torchlings::print_section("9. try_gpu and try_all_gpus");
    torchlings::print_field("try_gpu(0)", try_gpu(0).str());
    torchlings::print_field("try_gpu(7)", try_gpu(7).str());
    std::string all;
    for (const auto& device : try_all_gpus()) {
        all += (all.empty() ? "" : ", ") + device.str();
    }
    torchlings::print_field("try_all_gpus()", "[" + all + "]");
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::run_lesson(argc, argv, "torchlings lesson 02: device objects",
                                  [](const torchlings::LessonContext& context) {
                                      show_making(context);
                                      show_parts();
                                      show_equality(context);
                                      show_malformed();
                                      show_existence();
                                      show_guards(context);
                                      show_options(context);
                                      show_cost(context);
                                      show_helpers();
                                  });
}
