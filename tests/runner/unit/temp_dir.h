/// @file
/// @brief A temporary folder for one unit test, removed with everything in it afterwards.
#pragma once

#include <filesystem>
#include <fstream>
#include <string_view>

#include "tl_test/temp_folder.h"

namespace torchlings::runner::testing {

/// A fresh folder under the system's temporary folder (tl_test::TempFolder), removed on
/// destruction, that writes the files a test needs.
class TempDir {
  public:
    [[nodiscard]] const std::filesystem::path& path() const { return folder_.path; }

    /// Writes `content` to `relative` (creating folders) and returns the full path.
    // NOLINTNEXTLINE(modernize-use-nodiscard): callers may write a file without its path
    std::filesystem::path write(const std::filesystem::path& relative,
                                std::string_view content) const {
        std::filesystem::path full = folder_.path / relative;
        std::filesystem::create_directories(full.parent_path());
        std::ofstream(full, std::ios::binary) << content;
        return full;
    }

  private:
    tl_test::TempFolder folder_{"tl_runner_"};
};

}  // namespace torchlings::runner::testing
