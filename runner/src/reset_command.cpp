/// @file
/// @brief `reset`.
#include "tl_runner/commands.h"

namespace torchlings::runner {
}  // namespace torchlings::runner
namespace torchlings::runner {
ExitCode reset_command(Context&, const ResetOptions&) { throw EnvironmentError("reset: not written yet"); }
}  // namespace torchlings::runner
