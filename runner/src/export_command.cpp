/// @file
/// @brief `export`.
#include "tl_runner/commands.h"

namespace torchlings::runner {
}  // namespace torchlings::runner
namespace torchlings::runner {
ExitCode export_command(Context&, const ExportOptions&) { throw EnvironmentError("export: not written yet"); }
ExitCode pristine_command(Context&, bool) { throw EnvironmentError("pristine: not written yet"); }
}  // namespace torchlings::runner
