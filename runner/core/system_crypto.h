/// @file
/// @brief The few cryptographic functions the course uses, from the system's own library:
/// OpenSSL's libcrypto on Linux, CommonCrypto on macOS (part of the system: nothing to install).
/// The runner (content hashes, the run's key, checking each event line's MAC) and the tests'
/// reporter (signing its event lines, tests/support/run_key.h) both take them from here, so the
/// two compute a MAC the same way. Everything here has internal linkage in each file that
/// includes it: the reporter's rule that nothing of it has a name a learner's file could link to.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string_view>

#ifdef __APPLE__
#include <CommonCrypto/CommonCryptoError.h>  // kCCSuccess
#include <CommonCrypto/CommonDigest.h>
#include <CommonCrypto/CommonHMAC.h>
#include <CommonCrypto/CommonRandom.h>
#include <string.h>  // timingsafe_bcmp

#include <algorithm>
#else
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#endif

// A name of its own, so that these short names cannot meet another file's in the runner's unity
// build; internal linkage inside it, as said above.
namespace system_crypto {
// NOLINTNEXTLINE(cert-dcl59-cpp,google-build-namespaces): internal linkage, as said above
namespace {

constexpr std::size_t kSha256Size = 32;
constexpr std::size_t kSha1Size = 20;
using Sha256 = std::array<unsigned char, kSha256Size>;
using Sha1 = std::array<unsigned char, kSha1Size>;

/// HMAC-SHA256 of `data` under the key's `key_size` bytes at `key`, into `mac`; false when the
/// library failed.
[[maybe_unused]] bool hmac_sha256(const void* key, std::size_t key_size, std::string_view data,
                                  Sha256& mac) {
#ifdef __APPLE__
    CCHmac(kCCHmacAlgSHA256, key, key_size, data.data(), data.size(), mac.data());
    return true;
#else
    unsigned int size = 0;
    return HMAC(EVP_sha256(), key, static_cast<int>(key_size),
                reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac.data(),
                &size) != nullptr &&
           size == mac.size();
#endif
}

/// The SHA-256 (a Sha256 `out`) or SHA-1 (a Sha1 `out`: git's blob ids) of the parts, one after
/// another; false when the library failed.
template <std::size_t N>
[[maybe_unused]] bool digest(std::initializer_list<std::string_view> parts,
                             std::array<unsigned char, N>& out) {
    static_assert(N == kSha256Size || N == kSha1Size, "SHA-256 or SHA-1");
#ifdef __APPLE__
    // CommonCrypto takes at most 4 GiB - 1 a call (CC_LONG).
    static constexpr std::size_t kChunk = std::size_t{1} << 30;
    auto each_chunk = [&parts](auto&& update) {
        for (std::string_view part : parts) {
            while (!part.empty()) {
                const std::size_t size = std::min(part.size(), kChunk);
                update(part.data(), static_cast<CC_LONG>(size));
                part.remove_prefix(size);
            }
        }
    };
    if constexpr (N == kSha256Size) {
        CC_SHA256_CTX context;
        CC_SHA256_Init(&context);
        each_chunk(
            [&context](const void* data, CC_LONG size) { CC_SHA256_Update(&context, data, size); });
        CC_SHA256_Final(out.data(), &context);
    } else {
        CC_SHA1_CTX context;
        CC_SHA1_Init(&context);
        each_chunk(
            [&context](const void* data, CC_LONG size) { CC_SHA1_Update(&context, data, size); });
        CC_SHA1_Final(out.data(), &context);
    }
    return true;
#else
    EVP_MD_CTX* context = EVP_MD_CTX_new();
    bool ok =
        context != nullptr &&
        EVP_DigestInit_ex(context, N == kSha256Size ? EVP_sha256() : EVP_sha1(), nullptr) == 1;
    for (const std::string_view part : parts) {
        ok = ok && EVP_DigestUpdate(context, part.data(), part.size()) == 1;
    }
    unsigned int size = 0;
    ok = ok && EVP_DigestFinal_ex(context, out.data(), &size) == 1 && size == N;
    EVP_MD_CTX_free(context);
    return ok;
#endif
}

/// `size` bytes from the system's cryptographic random generator; false when it failed.
[[maybe_unused]] bool random_bytes(void* out, std::size_t size) {
#ifdef __APPLE__
    return CCRandomGenerateBytes(out, size) == kCCSuccess;
#else
    return RAND_bytes(static_cast<unsigned char*>(out), static_cast<int>(size)) == 1;
#endif
}

/// Whether the `size` bytes at `a` and `b` are the same, in a time that does not depend on where
/// they first differ.
[[maybe_unused]] bool same_bytes(const void* a, const void* b, std::size_t size) {
#ifdef __APPLE__
    return timingsafe_bcmp(a, b, size) == 0;
#else
    return CRYPTO_memcmp(a, b, size) == 0;
#endif
}

}  // namespace
}  // namespace system_crypto
