/// @file
/// @brief Content hashes (OpenSSL): SHA-256 for "done" in the progress file and for the test
/// manifest of a learner copy, and git's blob ids, which find a pristine stub in git's objects.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace torchlings::runner {

/// The SHA-256 of some bytes, as 64 lower-case hex digits.
[[nodiscard]] std::string sha256_hex(std::string_view bytes);

/// The SHA-256 of a file's bytes; throws EnvironmentError naming the file when it is unreadable.
[[nodiscard]] std::string sha256_file(const std::filesystem::path& path);

/// The same, or an empty string when the file cannot be read. Never throws.
[[nodiscard]] std::string sha256_file_or_empty(const std::filesystem::path& path) noexcept;

/// The id git gives a file with these bytes (`git hash-object`): SHA-1 of "blob <size>\0<bytes>".
[[nodiscard]] std::string git_blob_id(std::string_view bytes);

}  // namespace torchlings::runner
