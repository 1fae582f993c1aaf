/// @file
/// @brief `solution`.
#include "tl_runner/commands.h"

namespace torchlings::runner {
}  // namespace torchlings::runner
namespace torchlings::runner {
ExitCode solution_command(Context&, const SolutionOptions&) { throw EnvironmentError("solution: not written yet"); }
}  // namespace torchlings::runner
