/// @file standin.cpp
/// @brief The stand-in accelerator of tl_test/standin.h: LibTorch's PrivateUse1 slot filled with
/// a name, a device guard, an allocator, the kernels that make and copy tensors, and a fallback
/// that runs every other operator on the CPU kernels.
///
/// Which kernels a backend must bring itself: those that native_functions.yaml gives per backend
/// (CPU, CUDA, ...) and that the CPU fallback cannot stand in for, because they make tensors
/// (empty, empty_strided), move them between backends (_copy_from, _copy_from_and_resize) or
/// return views that must share the argument's storage (view, as_strided, _reshape_alias), and
/// resize_, which must keep the stand-in's allocator. Operators with a composite kernel
/// (copy_, to, clone, reshape, transpose, ...) need nothing: they end in those few.
#include "tl_test/standin.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/EmptyTensor.h>
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/resize_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/Allocator.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/core/impl/alloc_cpu.h>
#include <torch/library.h>

#include <array>
#include <atomic>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tl_test::standin {
namespace {

constexpr const char* kName = "standin";

// --- The current device: one per thread, as CUDA keeps it ---

thread_local c10::DeviceIndex t_current = 0;

void check_index(c10::DeviceIndex index) {
    TORCH_CHECK(index >= 0 && index < kDevices, "stand-in device index ", static_cast<int>(index),
                " is out of range: there are ", kDevices, " stand-in devices (", kName, ":0 to ",
                kName, ":", kDevices - 1, ")");
}

c10::DeviceIndex index_or_current(const c10::Device& d) {
    return d.has_index() ? d.index() : t_current;
}

// The device guard: what c10::DeviceGuard, the autograd engine and device_of() call. Streams and
// events are the default ones, and waiting on them does nothing: the work is done when the call
// returns.
struct GuardImpl final : c10::impl::DeviceGuardImplInterface {
    c10::DeviceType type() const override { return kType; }
    c10::Device exchangeDevice(c10::Device d) const override {
        TORCH_INTERNAL_ASSERT(d.type() == kType);
        const c10::Device old = getDevice();
        setDevice(d);
        return old;
    }
    c10::Device getDevice() const override { return {kType, t_current}; }
    void setDevice(c10::Device d) const override {
        TORCH_INTERNAL_ASSERT(d.type() == kType);
        const c10::DeviceIndex index = index_or_current(d);
        check_index(index);
        t_current = index;
    }
    void uncheckedSetDevice(c10::Device d) const noexcept override {
        t_current = index_or_current(d);
    }
    c10::Stream getStream(c10::Device d) const override {
        return c10::Stream(c10::Stream::DEFAULT, c10::Device(kType, index_or_current(d)));
    }
    c10::Stream exchangeStream(c10::Stream s) const override {
        return c10::Stream(c10::Stream::DEFAULT, s.device());
    }
    c10::DeviceIndex deviceCount() const noexcept override { return kDevices; }
    // Events: created lazily by record(); a null event is "already happened".
    void record(void** /*event*/, const c10::Stream& /*stream*/, c10::DeviceIndex /*index*/,
                c10::EventFlag /*flag*/) const override {}
    void block(void* /*event*/, const c10::Stream& /*stream*/) const override {}
    bool queryEvent(void* /*event*/) const override { return true; }
    void destroyEvent(void* /*event*/, c10::DeviceIndex /*index*/) const noexcept override {}
    bool queryStream(const c10::Stream& /*stream*/) const override { return true; }
    void synchronizeStream(const c10::Stream& /*stream*/) const override {}
};

// The hooks ATen asks of an accelerator (the autograd engine asks whether a device has a context;
// random numbers ask for a generator). Random numbers come from the CPU's generator: a tensor
// drawn on the stand-in after manual_seed(n) equals one drawn on the CPU.
struct Hooks final : at::PrivateUse1HooksInterface {
    bool isBuilt() const override { return true; }
    bool isAvailable() const override { return true; }
    bool hasPrimaryContext(c10::DeviceIndex /*index*/) const override { return true; }
    const at::Generator& getDefaultGenerator(c10::DeviceIndex /*index*/) const override {
        return at::detail::getDefaultCPUGenerator();
    }
    c10::DeviceIndex deviceCount() const override { return kDevices; }
    c10::DeviceIndex getCurrentDevice() const override { return t_current; }
    void setCurrentDevice(c10::DeviceIndex index) const override {
        check_index(index);
        t_current = index;
    }
    c10::DeviceIndex exchangeDevice(c10::DeviceIndex index) const override {
        const c10::DeviceIndex old = t_current;
        setCurrentDevice(index);
        return old;
    }
    c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex index) const override {
        return exchangeDevice(index);
    }
};

// --- The allocator: CPU memory, counted per device ---

struct DeviceCounters {
    std::atomic<std::int64_t> allocated{0};
    std::atomic<std::int64_t> peak{0};
    std::atomic<std::int64_t> allocations{0};
};

std::array<DeviceCounters, kDevices>& counters() {
    static std::array<DeviceCounters, kDevices> all;
    return all;
}

// What the deleter needs to give the bytes back to the right device's count.
struct Block {
    void* data;
    std::int64_t bytes;
    c10::DeviceIndex index;
};

void release(void* context) {
    auto* block = static_cast<Block*>(context);
    counters()[static_cast<std::size_t>(block->index)].allocated -= block->bytes;
    c10::free_cpu(block->data);
    delete block;  // NOLINT(cppcoreguidelines-owning-memory): the DataPtr's context
}

struct Allocator final : c10::Allocator {
    c10::DataPtr allocate(std::size_t n) override {
        const c10::DeviceIndex index = t_current;
        void* data = n == 0 ? nullptr : c10::alloc_cpu(n);
        auto& c = counters()[static_cast<std::size_t>(index)];
        const auto bytes = static_cast<std::int64_t>(n);
        const std::int64_t now = (c.allocated += bytes);
        std::int64_t peak = c.peak.load();
        while (now > peak && !c.peak.compare_exchange_weak(peak, now)) {
        }
        ++c.allocations;
        auto* block = new Block{data, bytes, index};  // NOLINT(cppcoreguidelines-owning-memory)
        return {data, block, &release, c10::Device(kType, index)};
    }
    void copy_data(void* dest, const void* src, std::size_t count) const override {
        default_copy_data(dest, src, count);
    }
};

Allocator& allocator() {
    static Allocator the_allocator;
    return the_allocator;
}

// --- The kernels that make and copy tensors ---

constexpr c10::DispatchKeySet kStandinKeys{c10::DispatchKey::PrivateUse1};

at::Tensor empty_memory_format(at::IntArrayRef size, std::optional<at::ScalarType> dtype,
                               std::optional<at::Layout> /*layout*/,
                               std::optional<at::Device> device, std::optional<bool> /*pin*/,
                               std::optional<at::MemoryFormat> memory_format) {
    const c10::DeviceGuard guard(device.value_or(c10::Device(kType)));
    return at::detail::empty_generic(size, &allocator(), kStandinKeys, c10::dtype_or_default(dtype),
                                     memory_format);
}

at::Tensor empty_strided(at::IntArrayRef size, at::IntArrayRef stride,
                         std::optional<at::ScalarType> dtype, std::optional<at::Layout> /*layout*/,
                         std::optional<at::Device> device, std::optional<bool> /*pin*/) {
    const c10::DeviceGuard guard(device.value_or(c10::Device(kType)));
    return at::detail::empty_strided_generic(size, stride, &allocator(), kStandinKeys,
                                             c10::dtype_or_default(dtype));
}

// A CPU tensor over the same bytes as `t` (a stand-in tensor, whose memory is CPU memory), or
// `t` itself when it is already on the CPU.
at::Tensor cpu_alias(const at::Tensor& t) {
    if (t.device().type() == c10::DeviceType::CPU) {
        return t;
    }
    return at::from_blob(
        t.data_ptr(), t.sizes(), t.strides(), [](void* /*unused*/) {},
        t.options().device(c10::DeviceType::CPU));
}

// A stand-in device's memory is CPU memory, but, as a GPU's is, it is not the host's to read:
// each element is kept with its bits inverted, so that a program that reads a stand-in tensor's
// data_ptr() on the host (a forgotten .cpu()) sees other values, as it would see garbage or crash
// on a GPU. Only the copies below invert the bits, in both directions; every operator goes through
// them (the CPU fallback copies its arguments to the CPU and its results back), so the values seen
// through the API are exact.
//
// as_bits: the same elements as an integer type of the element's size, so that any element's bits,
// floats and bools included, are copied and inverted as they are; complex128 (16 bytes) has none.
std::optional<at::Tensor> as_bits(const at::Tensor& cpu_view) {
    switch (cpu_view.element_size()) {
        case 1:
            return cpu_view.view(at::kByte);
        case 2:
            return cpu_view.view(at::kShort);
        case 4:
            return cpu_view.view(at::kInt);
        case 8:
            return cpu_view.view(at::kLong);
        default:
            return std::nullopt;
    }
}

// dst.copy_(self) when either is a stand-in tensor: CPU to stand-in, stand-in to CPU, between
// stand-in devices. Dtype conversion and strides are the CPU copy's.
at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool /*non_blocking*/) {
    for (const at::Tensor* t : {&self, &dst}) {
        TORCH_CHECK(t->device().type() == kType || t->device().type() == c10::DeviceType::CPU,
                    "the stand-in copies only between itself and the CPU, not ", t->device());
    }
    if (dst.numel() == 0) {
        return dst;
    }
    at::Tensor source = cpu_alias(self);
    if (self.device().type() == kType) {
        // The host's values, in memory of their own: copied as bits (a bool copy would turn an
        // inverted byte into true), then inverted back.
        if (const auto bits = as_bits(source)) {
            source = bits->clone().bitwise_not_().view(self.scalar_type());
        } else {
            source = source.clone();
        }
    }
    const at::Tensor target = cpu_alias(dst);
    target.copy_(source);
    if (dst.device().type() == kType) {
        if (const auto bits = as_bits(target)) {
            bits->bitwise_not_();
        }
    }
    return dst;
}

// Module::to() replaces a parameter's tensor in place (set_data), which LibTorch allows only
// between "compatible" tensor types; its list names the backends it knows. CPU and stand-in
// tensors are both dense tensors in CPU memory.
bool compatible_for_set_data(const at::Tensor& self, const at::Tensor& from) {
    const auto dense_here = [](const at::Tensor& t) {
        return t.layout() == c10::kStrided && (t.device().type() == kType || t.is_cpu());
    };
    return dense_here(self) && dense_here(from);
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
    dst.resize_(self.sizes());
    return copy_from(self, dst, false);
}

const at::Tensor& resize(const at::Tensor& self, at::IntArrayRef size,
                         std::optional<at::MemoryFormat> memory_format) {
    // The CPU kernel grows the storage with the storage's own allocator: the stand-in's, on the
    // tensor's device.
    const c10::DeviceGuard guard(self.device());
    return at::native::resize_(self, size, memory_format);
}

// --- Everything else: refuse two devices, then run on the CPU ---

// Every tensor an operator's arguments hold, lists included.
void collect(const c10::IValue& v, std::vector<at::Tensor>& out) {
    if (v.isTensor()) {
        out.push_back(v.toTensor());
    } else if (v.isTensorList()) {
        for (const at::Tensor& t : v.toTensorVector()) {
            out.push_back(t);
        }
    } else if (v.isList()) {
        for (const c10::IValue& item : v.toListRef()) {
            collect(item, out);
        }
    }
}

// CUDA's rule: all tensors on one device, except that a 0-dim CPU tensor may come along (it is a
// scalar, read on the host).
void refuse_two_devices(const c10::OperatorHandle& op, const torch::jit::Stack& stack) {
    const auto n = op.schema().arguments().size();
    std::vector<at::Tensor> tensors;
    for (auto i = stack.size() - n; i < stack.size(); ++i) {
        collect(stack[i], tensors);
    }
    std::optional<c10::Device> first;
    for (const at::Tensor& t : tensors) {
        if (!t.defined() || (t.device().is_cpu() && t.dim() == 0)) {
            continue;
        }
        if (!first) {
            first = t.device();
        } else if (t.device() != *first) {
            TORCH_CHECK(false,
                        "Expected all tensors to be on the same device, but found at least two "
                        "devices, ",
                        *first, " and ", t.device(), "! (when running ", op.schema().name(),
                        " on the stand-in accelerator)");
        }
    }
}

void fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
    refuse_two_devices(op, *stack);
    at::native::cpu_fallback(op, stack);
}

GuardImpl& guard_impl() {
    static GuardImpl impl;
    return impl;
}

Hooks& hooks() {
    static Hooks the_hooks;
    return the_hooks;
}

// The device guard, the allocator and the hooks at start-up: the autograd engine sizes its device
// threads once, from the guards registered when the process's first backward pass runs, and a
// stand-in device it did not count has no queue. The name only on first use: naming the
// PrivateUse1 backend makes it LibTorch's one accelerator for the rest of the process
// (at::getAccelerator() prefers it to CUDA), and from then on a backward pass over CUDA tensors
// stops in the autograd engine's stream check ("opt_ready_stream && opt_parent_stream", PyTorch
// issue 161129). So only a process that uses the stand-in names it, and test programs declare
// their [gpu] cases before their stand-in cases (tests/support/gpu_cases_first.py), so that a run
// of the whole program reaches them first.
void register_backend() {
    static std::once_flag once;
    std::call_once(once, [] {
        // A registrar object rather than registerDeviceGuard(), which older LibTorch lacks.
        static const c10::impl::DeviceGuardImplRegistrar registrar(kType, &guard_impl());
        c10::SetAllocator(kType, &allocator());
        if (!at::isPrivateUse1HooksRegistered()) {
            at::RegisterPrivateUse1HooksInterface(&hooks());
        }
    });
}

const bool kBackendAtStart = (register_backend(), true);

}  // namespace

void ensure_registered() {
    static std::once_flag once;
    std::call_once(once, [] {
        register_backend();
        c10::register_privateuse1_backend(kName);
    });
}

c10::Device device(int index) {
    if (index < 0 || index >= kDevices) {
        throw std::out_of_range("stand-in device " + std::to_string(index) +
                                " does not exist (0 to " + std::to_string(kDevices - 1) + ")");
    }
    ensure_registered();
    return {kType, static_cast<c10::DeviceIndex>(index)};
}

MemoryStats memory_stats(int index) {
    const auto& c = counters().at(static_cast<std::size_t>(device(index).index()));
    return {c.allocated.load(), c.peak.load(), c.allocations.load()};
}

void reset_peak(int index) {
    auto& c = counters().at(static_cast<std::size_t>(device(index).index()));
    c.peak = c.allocated.load();
}

int current_index() {
    ensure_registered();
    return t_current;
}

void set_current_index(int index) { guard_impl().setDevice(device(index)); }

}  // namespace tl_test::standin

// Kernels outside any namespace: TORCH_LIBRARY_IMPL defines its own.
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    using namespace tl_test::standin;  // NOLINT(google-build-using-namespace)
    m.impl("empty.memory_format", TORCH_FN(empty_memory_format));
    m.impl("empty_strided", TORCH_FN(empty_strided));
    m.impl("_copy_from", TORCH_FN(copy_from));
    m.impl("_copy_from_and_resize", TORCH_FN(copy_from_and_resize));
    m.impl("resize_", TORCH_FN(resize));
    m.impl("view", TORCH_FN(at::native::view));
    m.impl("as_strided", TORCH_FN(at::native::as_strided_tensorimpl));
    m.impl("_reshape_alias", TORCH_FN(at::native::_reshape_alias));
    m.impl("_has_compatible_shallow_copy_type", TORCH_FN(compatible_for_set_data));
}

// The composite kernel it replaces served the autograd key too; some LibTorch versions (2.9) do
// not fall through from there to the backend's kernel, so the autograd key gets it as well.
TORCH_LIBRARY_IMPL(aten, AutogradPrivateUse1, m) {
    using namespace tl_test::standin;  // NOLINT(google-build-using-namespace)
    m.impl("_has_compatible_shallow_copy_type", TORCH_FN(compatible_for_set_data));
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
    m.fallback(torch::CppFunction::makeFromBoxedFunction<&tl_test::standin::fallback>());
}
