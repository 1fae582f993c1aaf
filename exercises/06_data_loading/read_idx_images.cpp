/// @file read_idx_images.cpp
/// @brief Exercise read_idx_images (lesson 06): read MNIST's idx files, with clear errors.
///
/// An idx file is a big-endian header — a magic number (0x00000803 images, 0x00000801 labels),
/// then one 4-byte size per dimension — followed by the raw bytes. A reader of real data must
/// say exactly what is wrong with a bad file: the wrong magic (a label file passed as images),
/// or a file cut short by an interrupted download.
/// Check it with: ./torchlings check read_idx_images      Stuck? ./torchlings hint read_idx_images
#include "read_idx_images.h"

#include <torchlings/exercise.h>

#include <ATen/ops/empty.h>

#include <fstream>
#include <stdexcept>
#include <vector>

namespace ex {

std::uint32_t read_big_endian_u32(const unsigned char* bytes) {
    // TODO: combine the four bytes, most significant first: bytes[0] << 24 | ... | bytes[3].
    (void)bytes;
    TL_TODO("read_big_endian_u32: shift and OR the four bytes");
}

at::Tensor read_idx_images(const std::string& path) {
    // TODO: open the file in binary mode; if that fails, throw std::runtime_error naming path.
    // TODO: read the magic (4 bytes, big-endian); if it is not the image magic, throw
    //       std::runtime_error showing the expected and the found magic as 0x%08x.
    // TODO: read the count, rows and columns ("truncated" error if the file ends first).
    // TODO: at::empty({count, rows, columns}, at::kByte), read the bytes into its data_ptr, and
    //       throw a "truncated" error with the bytes expected and found if the file ends first.
    (void)path;
    TL_TODO("read_idx_images: header, checks, then the pixel bytes");
}

at::Tensor read_idx_labels(const std::string& path) {
    // TODO: the same steps with the label magic and one dimension (the count).
    (void)path;
    TL_TODO("read_idx_labels: header, checks, then the label bytes");
}

}  // namespace ex
