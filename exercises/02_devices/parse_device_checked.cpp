/// @file parse_device_checked.cpp
/// @brief Exercise parse_device_checked (lesson 02): parse a device string, then check it exists.
///
/// c10::Device("cuda:7") parses on a machine with one GPU and fails only when a tensor first
/// uses it. Turn a user's --device text into a device that is known to exist, with errors that
/// say what was wrong: a malformed string, another kind of device, or a GPU that is not there.
/// Check it with: ./torchlings check parse_device_checked
/// Stuck?         ./torchlings hint parse_device_checked
#include "parse_device_checked.h"

#include <torchlings/exercise.h>

#include <c10/util/Exception.h>

#include <stdexcept>
#include <string>

namespace ex {

c10::Device parse_device_checked(const std::string& text, int gpu_count) {
    // TODO: parse `text` with c10::Device's string constructor. It throws c10::Error for a
    //       malformed string: catch it and throw std::invalid_argument quoting `text` (add
    //       e.what_without_backtrace() so the learner sees LibTorch's reason).
    // TODO: accept only the CPU and CUDA device types; anything else is std::invalid_argument.
    // TODO: LibTorch stores the index in 8 bits and wraps larger numbers ("cuda:256" becomes
    //       cuda:0): reject a device whose str() is not `text` again, with std::out_of_range.
    // TODO: for a CUDA device, check it exists among `gpu_count` GPUs ("cuda" without an index
    //       needs one GPU); otherwise throw std::out_of_range naming `text` and the GPU count.
    (void)text;
    (void)gpu_count;
    TL_TODO("parse_device_checked: parse with c10::Device, then check the index");
}

}  // namespace ex
