/// @file usable_devices.cpp
/// @brief Exercise usable_devices (lesson 01): list up to N usable devices.
///
/// Data-parallel code wants "up to N GPUs, or the CPU if there are none" — never an empty list.
/// Check it with: ./torchlings check usable_devices      Stuck? ./torchlings hint usable_devices
#include "usable_devices.h"

#include <torchlings/exercise.h>

#include <stdexcept>
#include <string>

namespace ex {

std::vector<c10::Device> usable_devices(int wanted, int gpu_count) {
    // TODO: throw std::invalid_argument when wanted < 1 (say what was expected and what was got).
    // TODO: collect cuda:0, cuda:1, ... up to min(wanted, gpu_count) devices.
    // TODO: if there are none, return just the CPU.
    (void)wanted;
    (void)gpu_count;
    TL_TODO("usable_devices: list the GPUs, or the CPU");
}

}  // namespace ex
