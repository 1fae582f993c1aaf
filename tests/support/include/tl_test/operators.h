/// @file operators.h
/// @brief Watching the ATen operators this thread runs, through LibTorch's operator observers
/// (RecordFunction, what the profiler uses): for tests that check what an answer asked LibTorch to
/// do (a copy made at all, a copy's flags), which a machine without a GPU cannot show otherwise.
#pragma once

#include <ATen/record_function.h>

namespace tl_test {

/// Registers `start` (and `end`, when given) for every operator this thread runs, with the
/// operator's inputs, for as long as it lives: removed when it goes out of scope, also when the
/// code it watches throws, so that no later case is watched by it.
class OperatorWatch {
  public:
    explicit OperatorWatch(at::RecordFunctionCallback::StartCallback start,
                           at::RecordFunctionCallback::EndCallback end = nullptr)
        : handle_(at::addThreadLocalCallback(
              at::RecordFunctionCallback(start, end).needsInputs(true))) {}
    OperatorWatch(const OperatorWatch&) = delete;
    OperatorWatch& operator=(const OperatorWatch&) = delete;
    ~OperatorWatch() { at::removeCallback(handle_); }

  private:
    at::CallbackHandle handle_;
};

}  // namespace tl_test
