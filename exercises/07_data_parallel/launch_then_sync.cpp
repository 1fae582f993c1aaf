/// @file launch_then_sync.cpp
/// @brief Exercise launch_then_sync (lesson 07): drive several devices from one host thread.
///
/// A launch returns before its work is done, so one thread can keep every device busy: queue each
/// device's work without waiting for any device, and only then wait for all of them. A wait in
/// between (a synchronize, an item() or a .cpu() on a result) leaves the other devices idle.
/// Check it with: ./torchlings check launch_then_sync      Stuck? ./torchlings hint
/// launch_then_sync
#include "launch_then_sync.h"

#include <torchlings/exercise.h>

#include <c10/core/DeviceGuard.h>

#include <stdexcept>
#include <string>

namespace ex {

std::vector<at::Tensor> launch_then_sync(const std::vector<at::Tensor>& inputs,
                                         const std::vector<c10::Device>& devices, const Work& work,
                                         const Synchronize& synchronize) {
    // TODO: check the arguments (see the header) and throw std::invalid_argument, saying what
    //       was expected and what was got.
    // TODO: for each i, with devices[i] made current (a c10::DeviceGuard), copy inputs[i] to
    //       devices[i] and keep what work returns for it. Do not wait for any device here.
    // TODO: then synchronise every device, and return the results.
    (void)inputs;
    (void)devices;
    (void)work;
    (void)synchronize;
    TL_TODO("launch_then_sync: launch work on every device, then synchronise them all");
}

}  // namespace ex
