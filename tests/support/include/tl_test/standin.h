/// @file standin.h
/// @brief A stand-in accelerator: devices that are not the CPU, on every machine.
///
/// Most learners and CI have no GPU, and there the mistakes this course is about (a tensor left on
/// the CPU, a copy the wrong way, a replica on the wrong device, a check of the type that forgets
/// the index) would pass unseen. The stand-in is a device type of its own, LibTorch's PrivateUse1
/// slot under the name "standin", with kDevices devices: `standin:0` ... `standin:7`.
///
/// What it is: tensors live in CPU memory but their device is standin:N, so they compare unequal
/// to the CPU and to each other's devices; `to()`, `copy_()`, `clone()` move data between the CPU
/// and the stand-in devices and between those devices; every other operator runs on the CPU
/// kernels (a boxed fallback) after it refuses arguments on two devices, with CUDA's words
/// ("Expected all tensors to be on the same device, but found at least two devices, ...").
/// A device guard keeps a current device per thread, as CUDA does, so `Device("standin")` without
/// an index means the current one. An allocator counts the bytes each device holds and its peak.
/// Its memory is not the host's to read, as a GPU's is not: each element is stored with its bits
/// inverted, and only the copies to and from the CPU turn them back, so a host read of
/// `data_ptr()` (a forgotten `.cpu()`) sees other values, where a GPU would give garbage or a
/// crash.
///
/// What it is not: a GPU. Its devices share the CPU's cores and memory, so nothing is faster, and
/// streams and events are the default ones and do nothing. It shows placement, movement and
/// equivalence, never speed.
///
/// One accelerator per process: once named, the stand-in is LibTorch's accelerator for the rest of
/// the process (at::getAccelerator() prefers it to CUDA), and a backward pass over CUDA tensors
/// then stops inside the autograd engine. So it registers on first use, not at start-up, and a
/// test program declares its [gpu] cases before its stand-in cases (TL_REQUIRE_CUDA() fails a GPU
/// case that comes too late; tests/support/gpu_cases_first.py checks the order on every machine).
///
/// @code
/// const auto d = tl_test::standin::device(1);            // registers the backend on first use
/// auto x = torch::ones({2, 2}, torch::TensorOptions().device(d));
/// x.add(torch::ones({2, 2}));  // throws "Expected all tensors to be on the same device, ..."
/// @endcode
#pragma once

#include <c10/core/Device.h>

#include <cstdint>

namespace tl_test::standin {

/// How many stand-in devices there are (the index range of standin:N).
constexpr int kDevices = 8;

/// The stand-in's device type: c10::DeviceType::PrivateUse1.
constexpr c10::DeviceType kType = c10::DeviceType::PrivateUse1;

/// Names the backend "standin" once (its guard, allocator and kernels are registered when the
/// program starts); every function below calls it. Safe to call from any thread, any number of
/// times.
void ensure_registered();

/// Stand-in device `index` (0 <= index < kDevices); throws std::out_of_range otherwise.
c10::Device device(int index);

/// Memory the allocator handed out on one device and has not got back, and its peak since the
/// last reset_peak(), in bytes.
struct MemoryStats {
    std::int64_t allocated = 0;    ///< bytes held now
    std::int64_t peak = 0;         ///< most bytes held at once
    std::int64_t allocations = 0;  ///< blocks handed out since the program started
};

/// The statistics of stand-in device `index`.
MemoryStats memory_stats(int index);

/// Sets the peak of stand-in device `index` to what it holds now.
void reset_peak(int index);

/// The calling thread's current stand-in device index (0 until set).
int current_index();

/// Makes stand-in device `index` current for the calling thread.
void set_current_index(int index);

}  // namespace tl_test::standin
