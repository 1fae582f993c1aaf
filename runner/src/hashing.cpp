/// @file
/// @brief SHA-256 and git blob ids through OpenSSL's EVP digests.
#include "tl_runner/hashing.h"

#include <openssl/evp.h>

#include <array>
#include <memory>
#include <stdexcept>

#include "tl_runner/text.h"

namespace torchlings::runner {
namespace {

/// Hex digest of the concatenated parts with the named digest ("SHA256", "SHA1").
std::string digest_hex(const EVP_MD* type, std::initializer_list<std::string_view> parts) {
    const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                          &EVP_MD_CTX_free);
    if (!context || EVP_DigestInit_ex(context.get(), type, nullptr) != 1) {
        throw std::runtime_error("OpenSSL could not start a digest");
    }
    for (const std::string_view part : parts) {
        if (EVP_DigestUpdate(context.get(), part.data(), part.size()) != 1) {
            throw std::runtime_error("OpenSSL could not update a digest");
        }
    }
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(context.get(), digest.data(), &length) != 1) {
        throw std::runtime_error("OpenSSL could not finish a digest");
    }
    static constexpr std::string_view kHex = "0123456789abcdef";
    std::string text;
    text.reserve(2 * length);
    for (unsigned int i = 0; i < length; ++i) {
        text += kHex[digest[i] >> 4];
        text += kHex[digest[i] & 0xF];
    }
    return text;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) { return digest_hex(EVP_sha256(), {bytes}); }

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
    return digest_hex(EVP_sha1(), {header, std::string_view("\0", 1), bytes});
}

}  // namespace torchlings::runner
