/// @file same_device.cpp
/// @brief Exercise same_device (lesson 02): compare devices the way the hardware sees them.
///
/// c10::Device's operator== compares the type and the index as written, so "cuda" is not
/// "cuda:0" and "cpu" is not "cpu:0", and a CUDA tensor's device() (which always has an index)
/// never equals Device("cuda"). Resolve what a device refers to first, then compare.
/// Check it with: ./torchlings check same_device      Stuck? ./torchlings hint same_device
#include "same_device.h"

#include <torchlings/exercise.h>

#include <stdexcept>
#include <string>

namespace ex {

c10::Device resolve_device(const c10::Device& device, int current_gpu) {
    // TODO: a CUDA device without an index (has_index() is false) means the current GPU: return
    //       cuda:<current_gpu>, or throw std::invalid_argument when current_gpu < 0.
    // TODO: the CPU is one device whether written "cpu" or "cpu:0": return it without an index.
    // TODO: return every other device unchanged.
    (void)device;
    (void)current_gpu;
    TL_TODO("resolve_device: fill in the index that \"cuda\" leaves open");
}

bool same_device(const c10::Device& a, const c10::Device& b, int current_gpu) {
    // TODO: compare the two devices after resolving both.
    (void)a;
    (void)b;
    (void)current_gpu;
    TL_TODO("same_device: resolve, then compare");
}

}  // namespace ex
