/// @file read_idx_images_test.cpp
/// @brief Tests of exercise read_idx_images, built against the learner's file and the solution.
///
/// Every test writes its own tiny idx files into a fresh temporary folder: nothing is downloaded.
#include "read_idx_images.h"

#include <tl_test/tensors.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using Catch::Matchers::ContainsSubstring;

namespace {

namespace fs = std::filesystem;

// A folder of its own for one test case, removed at the end of the case.
class TempDir {
  public:
    // Random letters, not digits, name the folder: unique when test processes run in parallel,
    // and the numbers the error messages are checked for can only come from the file.
    TempDir() : path_(fs::temp_directory_path() / ("torchlings_idx_" + random_letters())) {
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return (path_ / name).string(); }

  private:
    static std::string random_letters() {
        std::random_device source;
        std::string letters;
        for (int i = 0; i < 16; ++i) {
            letters.push_back(static_cast<char>('a' + source() % 26));
        }
        return letters;
    }
    fs::path path_;
};

void put_u32(std::vector<unsigned char>& out, std::uint32_t v) {
    for (const int shift : {24, 16, 8, 0}) {
        out.push_back(static_cast<unsigned char>((v >> shift) & 0xFFU));
    }
}

// An idx file: magic, sizes, then `values` (which may be fewer than the sizes promise).
std::string write_idx(const TempDir& dir, const std::string& name, std::uint32_t magic,
                      const std::vector<std::uint32_t>& sizes,
                      const std::vector<unsigned char>& values) {
    std::vector<unsigned char> bytes;
    put_u32(bytes, magic);
    for (const auto s : sizes) {
        put_u32(bytes, s);
    }
    bytes.insert(bytes.end(), values.begin(), values.end());
    const auto path = dir.file(name);
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    return path;
}

std::vector<unsigned char> counting(int n) {
    std::vector<unsigned char> v;
    for (int i = 0; i < n; ++i) {
        v.push_back(static_cast<unsigned char>((i * 7) % 256));
    }
    return v;
}

}  // namespace

TEST_CASE("big-endian bytes become the right number", "[task_1]") {
    const std::array<unsigned char, 4> images{0x00, 0x00, 0x08, 0x03};
    const std::array<unsigned char, 4> mixed{0x12, 0x34, 0x56, 0x78};
    const std::array<unsigned char, 4> high{0xFF, 0x00, 0x00, 0x01};
    CHECK(ex::read_big_endian_u32(images.data()) == 2051U);
    CHECK(ex::read_big_endian_u32(mixed.data()) == 0x12345678U);
    CHECK(ex::read_big_endian_u32(high.data()) == 0xFF000001U);  // no sign extension
}

TEST_CASE("a tiny image file reads back exactly", "[task_2]") {
    const TempDir dir;
    const auto pixels = counting(2 * 3 * 4);
    const auto path = write_idx(dir, "images", 0x00000803, {2, 3, 4}, pixels);
    const auto images = ex::read_idx_images(path);
    auto expected = torch::empty({2, 3, 4}, torch::kUInt8);
    std::copy(pixels.begin(), pixels.end(), expected.data_ptr<std::uint8_t>());
    TL_CHECK_TENSOR_CLOSE(images, expected);
}

TEST_CASE("a tiny label file reads back exactly", "[task_2]") {
    const TempDir dir;
    const auto path = write_idx(dir, "labels", 0x00000801, {5}, {7, 2, 1, 0, 255});
    TL_CHECK_TENSOR_CLOSE(ex::read_idx_labels(path),
                          torch::tensor({7, 2, 1, 0, 255}, torch::kInt32).to(torch::kUInt8));
}

TEST_CASE("a file of zero images is an empty tensor", "[task_2]") {
    const TempDir dir;
    const auto path = write_idx(dir, "none", 0x00000803, {0, 28, 28}, {});
    const auto images = ex::read_idx_images(path);
    CHECK(images.sizes() == torch::IntArrayRef({0, 28, 28}));
    CHECK(images.scalar_type() == torch::kUInt8);
}

TEST_CASE("a bad magic number is a clear error", "[task_3]") {
    const TempDir dir;
    const auto labels = write_idx(dir, "labels", 0x00000801, {2}, {1, 2});
    REQUIRE_THROWS_AS(ex::read_idx_images(labels), std::runtime_error);
    CHECK_THROWS_WITH(ex::read_idx_images(labels),
                      ContainsSubstring("0x00000803") && ContainsSubstring("0x00000801"));
    const auto images = write_idx(dir, "images", 0x00000803, {1, 1, 1}, {9});
    REQUIRE_THROWS_AS(ex::read_idx_labels(images), std::runtime_error);
    CHECK_THROWS_WITH(ex::read_idx_labels(images),
                      ContainsSubstring("0x00000801") && ContainsSubstring("0x00000803"));
}

TEST_CASE("truncated pixel data is a clear error", "[task_3]") {
    const TempDir dir;
    const auto path = write_idx(dir, "short", 0x00000803, {2, 3, 4}, counting(10));
    REQUIRE_THROWS_AS(ex::read_idx_images(path), std::runtime_error);
    CHECK_THROWS_WITH(ex::read_idx_images(path), ContainsSubstring("truncated") &&
                                                     ContainsSubstring("24") &&
                                                     ContainsSubstring("10"));
}

TEST_CASE("a truncated header is a clear error", "[task_3]") {
    const TempDir dir;
    const auto path = dir.file("stub");
    {
        std::ofstream out(path, std::ios::binary);
        out.write("\x00\x00\x08\x03\x00\x00", 6);  // the magic, then half of the count
    }
    REQUIRE_THROWS_AS(ex::read_idx_images(path), std::runtime_error);
    CHECK_THROWS_WITH(ex::read_idx_images(path), ContainsSubstring("truncated"));
}

TEST_CASE("a missing file is a clear error naming it", "[task_3]") {
    const TempDir dir;
    const auto path = dir.file("does-not-exist");
    REQUIRE_THROWS_AS(ex::read_idx_labels(path), std::runtime_error);
    CHECK_THROWS_WITH(ex::read_idx_labels(path), ContainsSubstring("does-not-exist"));
    // A file that is not there is not a truncated one: the message must say which it is.
    CHECK_THROWS_WITH(ex::read_idx_labels(path), !ContainsSubstring("truncated"));
    CHECK_THROWS_WITH(ex::read_idx_images(path), !ContainsSubstring("truncated"));
}
