/// @file
/// @brief Content hashes (core/system_crypto.h): SHA-256 for "done" in the progress file and for
/// the test manifest of a learner copy, and git's blob ids, which find a pristine stub in git's
/// objects.
#pragma once

#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>

namespace torchlings::runner {

/// Bytes as lower-case hex digits, two per byte.
[[nodiscard]] std::string hex_text(std::span<const unsigned char> bytes);

/// The SHA-256 of some bytes, as 64 lower-case hex digits.
[[nodiscard]] std::string sha256_hex(std::string_view bytes);

/// The SHA-256 of a file's bytes; throws EnvironmentError naming the file when it is unreadable.
[[nodiscard]] std::string sha256_file(const std::filesystem::path& path);

/// The same, or an empty string when the file cannot be read. Never throws.
[[nodiscard]] std::string sha256_file_or_empty(const std::filesystem::path& path) noexcept;

/// The id git gives a file with these bytes (`git hash-object`): SHA-1 of "blob <size>\0<bytes>".
[[nodiscard]] std::string git_blob_id(std::string_view bytes);

/// Path (relative, with '/') to hash.
using HashList = std::map<std::string, std::string>;

/// Writes a manifest `{"format_version": 1, "<key>": {path: hash}}` atomically enough (one write).
void write_hash_list(const std::filesystem::path& file, std::string_view key,
                     const HashList& hashes);

/// Reads one; throws EnvironmentError saying what is wrong (missing, not JSON, no key).
[[nodiscard]] HashList read_hash_list(const std::filesystem::path& file, std::string_view key);

}  // namespace torchlings::runner
