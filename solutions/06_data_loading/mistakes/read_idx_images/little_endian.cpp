// Mistake: Reads the 4-byte numbers little-endian
// idx numbers are big-endian: 00 00 08 03 is 0x803, not 0x03080000.
#include "read_idx_images.h"

#include <ATen/ops/empty.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace ex {

namespace {

constexpr std::uint32_t kImageMagic = 0x00000803;
constexpr std::uint32_t kLabelMagic = 0x00000801;

std::string hex(std::uint32_t value) {
    std::array<char, 11> text{};
    std::snprintf(text.data(), text.size(), "0x%08x", value);
    return text.data();
}

std::uint32_t read_u32(std::ifstream& in, const std::string& path, const char* what) {
    std::array<unsigned char, 4> bytes{};
    // A short read leaves the stream failed: say which header field was missing.
    if (!in.read(reinterpret_cast<char*>(bytes.data()), bytes.size())) {
        throw std::runtime_error("idx file '" + path + "' is truncated: it ends inside the " +
                                 what + " of its header");
    }
    return read_big_endian_u32(bytes.data());
}

// Both readers are one: only the magic and the number of dimensions differ.
at::Tensor read_idx(const std::string& path, std::uint32_t magic, int dims, const char* kind) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot open idx file '" + path + "'");
    }
    const std::uint32_t found = read_u32(in, path, "magic number");
    if (found != magic) {
        throw std::runtime_error("idx file '" + path + "' is not an idx " + kind +
                                 " file: expected magic " + hex(magic) + ", found " + hex(found));
    }
    std::vector<int64_t> sizes;
    for (int d = 0; d < dims; ++d) {
        sizes.push_back(read_u32(in, path, "sizes"));
    }
    auto out = at::empty(sizes, at::TensorOptions().dtype(at::kByte));
    const auto expected = static_cast<std::streamsize>(out.numel());
    // One read straight into the tensor's memory; gcount() says how much really arrived.
    in.read(reinterpret_cast<char*>(out.data_ptr<std::uint8_t>()), expected);
    if (in.gcount() != expected) {
        throw std::runtime_error("idx file '" + path + "' is truncated: expected " +
                                 std::to_string(expected) + " bytes of " + kind + " data, got " +
                                 std::to_string(in.gcount()));
    }
    return out;
}

}  // namespace

std::uint32_t read_big_endian_u32(const unsigned char* bytes) {
    // Widen each byte before shifting: unsigned char << 24 would go through a signed int.
    return (std::uint32_t{bytes[3]} << 24U) | (std::uint32_t{bytes[2]} << 16U) |
           (std::uint32_t{bytes[1]} << 8U) | std::uint32_t{bytes[0]};
}

at::Tensor read_idx_images(const std::string& path) {
    // Magic 0x803: unsigned bytes (0x08) in 3 dimensions: count, rows, columns.
    return read_idx(path, kImageMagic, 3, "image");
}

at::Tensor read_idx_labels(const std::string& path) {
    // Magic 0x801: unsigned bytes in 1 dimension: the count.
    return read_idx(path, kLabelMagic, 1, "label");
}

}  // namespace ex
