/// @file temp_folder.h
/// @brief A fresh folder under the system's temporary folder for one test, removed with
/// everything in it when the test ends.
#pragma once

#include <stdlib.h>  // mkdtemp (glibc)
#include <unistd.h>  // mkdtemp (macOS)

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace tl_test {

/// mkdtemp() of `<temp>/<prefix>XXXXXX`; `path` is the folder. Throws if it cannot be made.
struct TempFolder {
    std::filesystem::path path;

    explicit TempFolder(const std::string& prefix = "tl-test-") {
        std::string pattern =
            (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw std::runtime_error("cannot create a temporary folder like " + pattern);
        }
        path = pattern;
    }
    ~TempFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    TempFolder(TempFolder&&) = delete;
    TempFolder& operator=(TempFolder&&) = delete;
};

/// The names of what `folder` holds, sorted.
inline std::vector<std::string> names_in(const std::filesystem::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace tl_test
