/// @file 03_tensor_movement.cpp
/// @brief Lesson 03 — tensor movement: between devices, back to the host, and what it costs.
///
/// What you will learn:
///   1. to move tensors with .to(device), .to(device, dtype), .cuda() and .cpu(), and when
///      "moving" returns the very same tensor instead of a copy;
///   2. the same-device rule of every operation, and how to read values back into a std::vector
///      (the C++ .numpy()) or wrap host memory with from_blob without a dangling pointer;
///   3. what pinned memory and non_blocking buy, and how fast copies really are on this machine.
/// Run it: ./torchlings run 03            (or: build/dev/bin/lesson_03 --device cpu)
#include <torchlings/device.h>
#include <torchlings/lesson.h>
#include <torchlings/timer.h>

#include <torch/torch.h>

#include <array>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using torchlings::first_line;
using torchlings::print_field;
using torchlings::print_section;

std::string yes_no(bool value) { return value ? "true" : "false"; }

/// "float32", "float16": the names Python prints, which c10::toString does not use.
std::string dtype_name(c10::ScalarType dtype) {
    switch (dtype) {
        case c10::ScalarType::Float:
            return "float32";
        case c10::ScalarType::Double:
            return "float64";
        case c10::ScalarType::Half:
            return "float16";
        case c10::ScalarType::BFloat16:
            return "bfloat16";
        case c10::ScalarType::Long:
            return "int64";
        default:
            return c10::toString(dtype);
    }
}

/// "float32[2, 3] on cpu".
std::string describe(const torch::Tensor& t) {
    std::ostringstream out;
    out << dtype_name(t.scalar_type()) << t.sizes() << " on " << t.device();
    return out.str();
}

/// 100, -1, 2.5: as std::cout prints a number, without std::to_string's trailing zeros.
std::string number_text(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

std::string pointer_text(const void* p) {
    std::ostringstream out;
    out << p;
    return out.str();
}

std::string same_or_new(const torch::Tensor& result, const torch::Tensor& original) {
    return result.data_ptr() == original.data_ptr() ? "same memory (no copy)"
                                                    : "new memory (a copy)";
}

std::string list_text(const std::vector<float>& values) {
    std::ostringstream out;
    out << '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
        out << (i == 0 ? "" : ", ") << values[i];
    }
    out << ']';
    return out.str();
}

// --- 1. Moving a tensor ---
// .to() is the one verb: a device, a dtype, both, or TensorOptions. .cpu() and .cuda() are
// shorthands (.cuda() means the *current* CUDA device, usually cuda:0).
void show_moving(const c10::Device& device) {
    print_section("Moving a tensor");
    const auto x = torch::arange(6, torch::kFloat32).view({2, 3});
    print_field("x", describe(x));
    print_field("x.to(device)", describe(x.to(device)));
    print_field("x.to(device, kFloat16)", describe(x.to(device, torch::kFloat16)));
    print_field("x.to(device).cpu()", describe(x.to(device).cpu()));
    if (torch::cuda::is_available()) {
        print_field("x.cuda()", describe(x.cuda()));
    } else {
        // Catching is for the demo's sake: a real program checks is_available() first.
        try {
            print_field("x.cuda()", describe(x.cuda()));
        } catch (const c10::Error& e) {
            print_field("x.cuda()", "error (no GPU): " + first_line(e));
        }
    }
}

// --- 2. Already there? Then it is the same tensor ---
// .to() returns `self` when device, dtype and layout already match: no allocation, no copy, and
// writes through the result change the original. Ask for a copy with copy=true or clone().
void show_aliasing(const c10::Device& device) {
    print_section("Already there, no copy");
    const auto d = torch::arange(6, torch::TensorOptions().dtype(torch::kFloat32).device(device));
    print_field("d.data_ptr()", pointer_text(d.data_ptr()));
    print_field("d.to(device)", same_or_new(d.to(device), d));
    print_field("d.to(device, kFloat32)", same_or_new(d.to(device, torch::kFloat32), d));
    print_field(
        "d.to(.., copy=true)",
        same_or_new(d.to(device, d.scalar_type(), /*non_blocking=*/false, /*copy=*/true), d));
    print_field("d.clone()", same_or_new(d.clone(), d));
    print_field("d.to(device, kFloat64)", same_or_new(d.to(device, torch::kFloat64), d));
    const auto alias = d.to(device);
    alias.mul_(10);  // writes through the alias: d changes too
    print_field("alias = d.to(device)",
                "alias.mul_(10) made d[1] = " + number_text(d[1].item<float>()));
}

// --- 3. The same-device rule ---
// Every operation needs all its tensor arguments on one device (0-dim CPU scalars excepted).
// LibTorch never moves them for you. On a machine without a GPU the "meta" device (shapes, no
// data) triggers the very same check.
void show_same_device_rule(const c10::Device& device) {
    print_section("The same-device rule");
    const auto a = torch::ones({3});
    const auto b = torch::ones({3}, torch::Device("meta"));
    print_field("a", describe(a));
    print_field("b", describe(b));
    try {
        print_field("a + b", describe(a + b));
    } catch (const c10::Error& e) {
        print_field("a + b", "error: " + first_line(e));
    }
    print_field("a.to(b.device()) + b", describe(a.to(b.device()) + b));
    print_field("0-dim CPU scalar + b", describe(torch::tensor(2.0F) + b));

    if (device.is_cuda()) {
        print_section("GPU: the same rule on " + device.str());
        const auto g = torch::ones({3}, torch::TensorOptions().device(device));
        try {
            print_field("cuda tensor + cpu tensor", describe(g + a));
        } catch (const c10::Error& e) {
            print_field("cuda tensor + cpu tensor", "error: " + first_line(e));
        }
        print_field("g + a.to(g.device())", describe(g + a.to(g.device())));
        try {
            print_field("g + 0-dim CPU scalar", describe(g + torch::tensor(2.0F)));
        } catch (const c10::Error& e) {
            print_field("g + 0-dim CPU scalar", "error: " + first_line(e));
        }
    }
}

// --- 4. Back to the host: the C++ .numpy() ---
// A GPU tensor's data_ptr() is a device address; a view's memory is not in the order it prints.
// Bring the values to the host, in one dtype, contiguous, and only then read the memory.

/// The C++ counterpart of `t.detach().cpu().numpy()`: values in logical (row-major) order.
std::vector<float> to_host_vector(const torch::Tensor& t) {
    // detach: no autograd history; to(kCPU, kFloat32): host memory, one dtype;
    // contiguous: row-major order, so that the memory can be read front to back.
    const auto host = t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    const auto* begin = host.const_data_ptr<float>();
    return {begin, begin + host.numel()};
}

void show_back_to_host(const c10::Device& device) {
    print_section("Back to the host");
    const auto w = torch::arange(
        6, torch::TensorOptions().dtype(torch::kFloat32).device(device).requires_grad(true));
    const auto src = (w * 2).view({2, 3}).t();  // has autograd history; a transposed view
    print_field("src", describe(src) + ", contiguous " + yes_no(src.is_contiguous()) +
                           ", requires_grad " + yes_no(src.requires_grad()));
    print_field("to_host_vector(src)", list_text(to_host_vector(src)));
    // The trap: a view's memory is in storage order, not in the order the view shows.
    const auto host_view = src.detach().cpu();
    const auto* raw = host_view.const_data_ptr<float>();
    print_field("memory read front to back", list_text({raw, raw + host_view.numel()}));
    try {
        (void)host_view.data_ptr<double>();
    } catch (const c10::Error& e) {
        print_field("data_ptr<double>() of it", "error: " + first_line(e));
    }
}

// --- 5. Wrapping host memory: from_blob ---
// from_blob borrows: the tensor points into memory it does not own and will not free. It must
// not outlive that memory; clone() makes a tensor that owns a copy.
void show_from_blob(const c10::Device& device) {
    print_section("Wrapping host memory");
    std::vector<float> v{1, 2, 3, 4};
    const auto t = torch::from_blob(v.data(), {4}, torch::kFloat32);
    print_field("t shares v's memory", yes_no(t.data_ptr() == v.data()));
    v[0] = 100;
    print_field("after v[0] = 100, t[0]", number_text(t[0].item<float>()));
    const auto owned = t.clone();
    v[0] = -1;
    print_field("owned = t.clone(); v[0]=-1", "owned[0] = " + number_text(owned[0].item<float>()));
    print_field("t.to(kCPU) still borrows", yes_no(t.to(torch::kCPU).data_ptr() == v.data()));
    print_field("t.to(device) borrows",
                yes_no(t.to(device).data_ptr() == static_cast<void*>(v.data())));
    try {
        t.resize_({8});
    } catch (const c10::Error& e) {
        print_field("t.resize_({8})", "error: " + first_line(e));
    }
}

// --- 6. Pinned memory and non_blocking ---
// Pinned (page-locked) host memory can be read by the GPU's copy engines directly, which makes
// host<->device copies faster and lets non_blocking copies run while the host goes on. Pinning
// is a CUDA service: it initialises CUDA, so without a GPU it throws.
void show_pinned(const c10::Device& device) {
    print_section("Pinned memory and non_blocking");
    const auto h = torch::ones({1024});
    print_field("h.is_pinned()", yes_no(h.is_pinned()));
    torch::Tensor source = h;  // pinned when pinning works, else the pageable original
    try {
        source = h.pin_memory();
        print_field("h.pin_memory()", "ok, is_pinned() " + yes_no(source.is_pinned()));
    } catch (const c10::Error& e) {
        print_field("h.pin_memory()", "error (needs CUDA): " + first_line(e));
    }
    const auto moved = source.to(device, /*non_blocking=*/true);
    if (!device.is_cuda()) {
        print_field("to(device, non_blocking)",
                    describe(moved) + ", " + same_or_new(moved, source) + ": nothing to wait for");
        return;
    }
    // The copy may still be running. GPU work queued on the same stream is ordered after it;
    // the host must not reuse `source` until the stream has caught up.
    torchlings::synchronize(device);
    print_field("to(device, non_blocking)",
                describe(moved) + (source.is_pinned() ? ", from pinned memory" : ", pageable") +
                    ", synchronised before reuse");

    print_section("GPU: non_blocking back to the host");
    const auto doubled = moved * 2;
    // Device to host with non_blocking: LibTorch allocates a pinned destination and returns
    // before the data has arrived. Reading it now would race the copy.
    const auto back = doubled.to(torch::kCPU, /*non_blocking=*/true);
    print_field("back.is_pinned()", yes_no(back.is_pinned()));
    torchlings::synchronize(device);
    print_field("back after synchronize", "sum " + number_text(back.sum().item<float>()) +
                                              " (expected " + number_text(2.0 * 1024) + ")");
}

// --- 7. How fast is a copy? ---
// In the spirit of CUDA's bandwidthTest: copy a buffer between preallocated tensors and report
// bytes / median time. Host-to-host copies run everywhere; the other columns need a CUDA device.
struct Column {
    const char* title;
    bool needs_cuda;
    bool pinned;
    c10::DeviceType from;
    c10::DeviceType to;
};

constexpr std::array<Column, 5> kColumns{{
    {"H2H pageable", false, false, c10::DeviceType::CPU, c10::DeviceType::CPU},
    {"H2D pageable", true, false, c10::DeviceType::CPU, c10::DeviceType::CUDA},
    {"H2D pinned", true, true, c10::DeviceType::CPU, c10::DeviceType::CUDA},
    {"D2H pageable", true, false, c10::DeviceType::CUDA, c10::DeviceType::CPU},
    {"D2H pinned", true, true, c10::DeviceType::CUDA, c10::DeviceType::CPU},
}};

constexpr std::array<std::int64_t, 4> kSizesMiB{1, 16, 64, 256};
constexpr int kRepetitions = 10;
constexpr int kWarmup = 2;
constexpr int kColumnWidth = 14;

/// GB/s (10^9 bytes per second) of one kind of copy of `bytes` bytes, median of kRepetitions.
double measure_copy(const Column& column, std::int64_t bytes, const c10::Device& gpu) {
    const auto place = [&](c10::DeviceType type) {
        auto options = torch::TensorOptions().dtype(torch::kUInt8);
        if (type == c10::DeviceType::CUDA) {
            return options.device(gpu);
        }
        return options.pinned_memory(column.pinned);
    };
    // Filled, so that every page is mapped before the clock starts (first touch is not a copy).
    const auto src = torch::empty({bytes}, place(column.from)).fill_(1);
    auto dst = torch::empty({bytes}, place(column.to)).fill_(0);
    // non_blocking only matters for pinned memory; the timer waits for the copy either way.
    const bool non_blocking = column.pinned;
    const c10::Device timed_on = column.needs_cuda ? gpu : c10::Device(c10::DeviceType::CPU);
    const auto summary = torchlings::time_on_device(
        timed_on, [&] { dst.copy_(src, non_blocking); }, kRepetitions, kWarmup);
    return static_cast<double>(bytes) / (summary.median_ms * 1e-3) / 1e9;
}

void show_bandwidth(const c10::Device& device) {
    print_section("Copy bandwidth (GB/s, median of 10)");
    const bool have_cuda = device.is_cuda();
    std::ostringstream header;
    for (const auto& column : kColumns) {
        header << std::setw(kColumnWidth) << column.title;
    }
    print_field("Size", header.str());
    double h2h_256_gbps = 0;
    for (const std::int64_t mib : kSizesMiB) {
        std::ostringstream row;
        for (const auto& column : kColumns) {
            if (column.needs_cuda && !have_cuda) {
                row << std::setw(kColumnWidth) << "-";
                continue;
            }
            const double gbps = measure_copy(column, mib << 20, device);
            if (!column.needs_cuda && mib == kSizesMiB.back()) {
                h2h_256_gbps = gbps;
            }
            row << std::setw(kColumnWidth) << std::fixed << std::setprecision(1) << gbps;
        }
        print_field(std::to_string(mib) + " MiB", row.str());
    }
    std::ostringstream cost;
    cost << "At " << std::fixed << std::setprecision(1) << h2h_256_gbps
         << " GB/s a host-to-host copy of 1 GiB takes about " << std::setprecision(0)
         << (1024.0 * 1024 * 1024) / (h2h_256_gbps * 1e9) * 1e3 << " ms on this machine.";
    std::cout << "- " << cost.str() << '\n';
    if (have_cuda) {
        std::cout << "- H2D/D2H columns: copies between this host and " << device
                  << ", timed with CUDA events; compare pageable with pinned.\n";
    } else {
        std::cout << "- '-': host-to-device, device-to-host and pinned copies need a CUDA device"
                  << " (run with --device cuda on a GPU machine); only host copies ran here.\n";
    }
}

// --- 8. What it costs ---
void show_notes(const c10::Device& device) {
    print_section("What it costs");
    std::cout << "- A .to() that finds the tensor already in place costs nothing; one that does"
                 " not allocates and copies every byte.\n";
    std::cout << "- Move data once, compute many times: every copy costs bytes / bandwidth,"
                 " and the table above measured that bandwidth here.\n";
    if (!device.is_cuda()) {
        std::cout << "- Device " << device
                  << ": the GPU halves of this lesson were described, not run.\n";
    }
}

}  // namespace

int main(int argc, char** argv) {
    return torchlings::run_lesson(argc, argv, "torchlings lesson 03: tensor movement",
                                  [](const torchlings::LessonContext& context) {
                                      show_moving(context.device);
                                      show_aliasing(context.device);
                                      show_same_device_rule(context.device);
                                      show_back_to_host(context.device);
                                      show_from_blob(context.device);
                                      show_pinned(context.device);
                                      show_bandwidth(context.device);
                                      show_notes(context.device);
                                  });
}
