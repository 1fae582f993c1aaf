/// @file exercise.h
/// @brief What exercise stubs use to say "not done yet".
///
/// A stub must compile and fail its tests by assertion or by a thrown "not yet done" exception,
/// never by crashing. `TL_TODO("what to do")` throws NotDone; the test runner shows the message.
/// This header is deliberately tiny: it is included by the learner's file, whose compile time is
/// the learner's wait after each save.
#pragma once

#include <stdexcept>
#include <string>

namespace torchlings {

/// The exception a stub throws where the learner still has work to do. what() starts "TODO: ".
class NotDone : public std::logic_error {
  public:
    /// @param what the step the learner has yet to write.
    explicit NotDone(const std::string& what) : std::logic_error("TODO: " + what) {}
};

}  // namespace torchlings

/// Marks a place the learner must complete: throws torchlings::NotDone with `what`.
#define TL_TODO(what) throw ::torchlings::NotDone(what)
