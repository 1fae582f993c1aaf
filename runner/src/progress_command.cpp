/// @file
/// @brief `progress`.
#include "tl_runner/commands.h"

namespace torchlings::runner {
}  // namespace torchlings::runner
namespace torchlings::runner {
ExitCode progress_command(Context&) { throw EnvironmentError("progress: not written yet"); }
}  // namespace torchlings::runner
