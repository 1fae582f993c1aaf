/// @file
/// @brief A temporary folder for one unit test, removed with everything in it afterwards.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace torchlings::runner::testing {

/// A fresh folder under the system's temporary folder (mkdtemp), removed on destruction.
class TempDir {
  public:
    TempDir() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "tl_runner_XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) {
            throw std::runtime_error("mkdtemp failed");
        }
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

    /// Writes `content` to `relative` (creating folders) and returns the full path.
    // NOLINTNEXTLINE(modernize-use-nodiscard): callers may write a file without its path
    std::filesystem::path write(const std::filesystem::path& relative,
                                std::string_view content) const {
        std::filesystem::path full = path_ / relative;
        std::filesystem::create_directories(full.parent_path());
        std::ofstream(full, std::ios::binary) << content;
        return full;
    }

  private:
    std::filesystem::path path_;
};

}  // namespace torchlings::runner::testing
