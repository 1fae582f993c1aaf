/// @file launch_then_sync.h
/// @brief Exercise launch_then_sync: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <functional>
#include <vector>

namespace ex {

/// Queues work on the device its argument lives on and returns at once, as a CUDA launch does:
/// the tensor it returns is on that device, and its values are ready only once that device has
/// been synchronised.
using Work = std::function<at::Tensor(const at::Tensor&)>;

/// Returns once all work queued on `device` has finished: torchlings::synchronize on GPUs; the
/// tests pass a fake device whose queued work is done by this call.
using Synchronize = std::function<void(const c10::Device&)>;

/// Drives every device of `devices` from the calling thread, as d2l's `run(x_gpu1);
/// run(x_gpu2); synchronize(...)` does:
///  1. for each i in order, with devices[i] made current (a device guard, restored afterwards),
///     copies inputs[i] to devices[i] and calls `work` on the copy, keeping what it returns;
///     nothing waits for a device in between, so every device has its work before the host
///     waits for any of them;
///  2. only then synchronises each device of `devices` (a device listed twice may be
///     synchronised once or twice).
/// No other thread is started: one host thread keeps all devices busy because launches return
/// before the work is done.
/// @returns work's results in order, results[i] on devices[i], ready to read.
/// @throws std::invalid_argument if `devices` is empty, if inputs and devices differ in count, or
///         if `work` or `synchronize` is empty.
std::vector<at::Tensor> launch_then_sync(const std::vector<at::Tensor>& inputs,
                                         const std::vector<c10::Device>& devices, const Work& work,
                                         const Synchronize& synchronize);

}  // namespace ex
