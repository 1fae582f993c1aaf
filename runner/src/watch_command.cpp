/// @file
/// @brief `watch`.
#include "tl_runner/commands.h"

namespace torchlings::runner {

ExitCode watch_command(Context&, const WatchOptions&) {
    throw EnvironmentError("watch: not written yet");
}

}  // namespace torchlings::runner
