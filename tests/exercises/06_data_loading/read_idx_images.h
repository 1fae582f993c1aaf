/// @file read_idx_images.h
/// @brief Exercise read_idx_images: the API the learner's file implements and the tests call.
///
/// The idx format (MNIST's): a 4-byte magic number, 0x00000803 for images (type 0x08 = unsigned
/// byte, 3 dimensions) or 0x00000801 for labels (1 dimension); then one 4-byte size per
/// dimension; then the values, one byte each, row after row. Every 4-byte number is BIG-endian.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace ex {

/// The unsigned 32-bit number stored big-endian (most significant byte first) in bytes[0..3].
std::uint32_t read_big_endian_u32(const unsigned char* bytes);

/// Reads an idx image file: magic 0x00000803, then the count, rows and columns, then
/// count * rows * columns bytes. Returns a uint8 tensor [count, rows, columns] on the CPU.
/// @throws std::runtime_error when the file cannot be opened (the message names the path); when
///   the magic is wrong (the message shows expected and found as 0x%08x, e.g. "0x00000803");
///   when the header or the pixel data is cut short (the message contains "truncated" and, for
///   the data, the number of bytes expected and the number found).
at::Tensor read_idx_images(const std::string& path);

/// Reads an idx label file: magic 0x00000801, then the count, then count bytes. Returns a uint8
/// tensor [count] on the CPU. Errors as read_idx_images().
at::Tensor read_idx_labels(const std::string& path);

}  // namespace ex
