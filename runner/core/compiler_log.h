/// @file
/// @brief Finding the one compiler error worth showing a learner in a build log (gcc, clang,
/// nvcc and linker styles).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace torchlings::runner {

/// One error as the compiler reported it.
struct CompilerError {
    std::string file;                  ///< the path as printed; empty for linker/tool errors
    int line = 0;                      ///< 0 when the compiler gave none
    int column = 0;                    ///< 0 when the compiler gave none (nvcc)
    std::string message;               ///< the text after "error:"
    std::string headline;              ///< the whole line that reported the error
    std::vector<std::string> context;  ///< the lines the compiler printed under it (source, caret)
    bool in_learner_file = false;      ///< the error's location is the learner's file
    /// Where the learner's file leads to an error located elsewhere: the `#include` line or the
    /// "required from here" line of a template instantiated from it. Empty file when unknown.
    std::string origin_file;
    int origin_line = 0;  ///< the line in origin_file
};

/// The error to show for a failed build: the first error located in `learner_file`; failing
/// that, the first error line of any kind (compiler, linker, CMake). Relative paths in the
/// log are taken relative to `build_dir`. Nothing when the log has no recognisable error.
[[nodiscard]] std::optional<CompilerError> first_error(std::string_view log,
                                                       const std::filesystem::path& learner_file,
                                                       const std::filesystem::path& build_dir);

/// The most context lines kept under an error.
inline constexpr std::size_t kMaxContextLines = 6;

}  // namespace torchlings::runner
