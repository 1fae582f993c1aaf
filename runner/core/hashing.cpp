/// @file
/// @brief SHA-256 and git blob ids (core/system_crypto.h), and the JSON lists of hashes.
#include "core/hashing.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/errors.h"
#include "core/system_crypto.h"
#include "core/text.h"

namespace torchlings::runner {
namespace {
using nlohmann::json;

constexpr int kManifestFormatVersion = 1;

}  // namespace

std::string hex_text(std::span<const unsigned char> bytes) {
    static constexpr std::string_view kHex = "0123456789abcdef";
    std::string text;
    for (const unsigned char byte : bytes) {
        text += kHex[byte >> 4];
        text += kHex[byte & 0xF];
    }
    return text;
}

std::string sha256_hex(std::string_view bytes) {
    system_crypto::Sha256 hash{};
    if (!system_crypto::digest({bytes}, hash)) {
        throw std::runtime_error("the system's cryptographic library could not compute a SHA-256");
    }
    return hex_text(hash);
}

std::string sha256_file(const std::filesystem::path& path) { return sha256_hex(read_file(path)); }

std::string sha256_file_or_empty(const std::filesystem::path& path) noexcept {
    try {
        return sha256_file(path);
    } catch (...) {
        return {};
    }
}

std::string git_blob_id(std::string_view bytes) {
    const std::string header = "blob " + std::to_string(bytes.size());
    system_crypto::Sha1 hash{};
    if (!system_crypto::digest({header, std::string_view("\0", 1), bytes}, hash)) {
        throw std::runtime_error("the system's cryptographic library could not compute a SHA-1");
    }
    return hex_text(hash);
}

void write_hash_list(const std::filesystem::path& file, std::string_view key,
                     const HashList& hashes) {
    json list = json::object();
    for (const auto& [path, hash] : hashes) {
        list[path] = hash;
    }
    const json document = {{"format_version", kManifestFormatVersion}, {std::string(key), list}};
    write_file(file, document.dump(2) + "\n");
}

HashList read_hash_list(const std::filesystem::path& file, std::string_view key) {
    const json document = json::parse(read_file(file), nullptr, /*allow_exceptions=*/false);
    const std::string expected = "a JSON object {\"format_version\": 1, \"" + std::string(key) +
                                 "\": {\"<path>\": \"<hash>\", ...}}";
    if (document.is_discarded() || !document.is_object()) {
        throw EnvironmentError(file.string() + " is not valid JSON; expected " + expected + ".");
    }
    if (document.value("format_version", json()) != kManifestFormatVersion) {
        throw EnvironmentError(file.string() + " has format_version " +
                               document.value("format_version", json()).dump() + "; expected " +
                               std::to_string(kManifestFormatVersion) + ".");
    }
    const auto list = document.find(std::string(key));
    if (list == document.end() || !list->is_object()) {
        throw EnvironmentError(file.string() + " has no \"" + std::string(key) +
                               "\" object; expected " + expected + ".");
    }
    HashList hashes;
    for (const auto& [path, hash] : list->items()) {
        if (!hash.is_string()) {
            throw EnvironmentError(file.string() + ": the hash of " + path +
                                   " is not a string; expected " + expected + ".");
        }
        hashes.emplace(path, hash.get<std::string>());
    }
    return hashes;
}

}  // namespace torchlings::runner
