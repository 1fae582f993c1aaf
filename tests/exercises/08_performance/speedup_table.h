/// @file speedup_table.h
/// @brief Exercise speedup_table: the API the learner's file implements and the tests call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ex {

/// The work an operation does and the memory traffic it needs at the least.
struct OpCost {
    double flops = 0;  ///< Floating-point operations (a multiply-add counts as two).
    double bytes = 0;  ///< Bytes read plus bytes written, each element once.
};

/// C = A B for square n x n matrices: n^3 multiply-adds; A and B read, C written.
/// @throws std::invalid_argument if n < 1 or element_bytes < 1.
OpCost matmul_cost(std::int64_t n, std::int64_t element_bytes);

/// c = a + b for vectors of n elements: n additions; a and b read, c written.
/// @throws std::invalid_argument if n < 1 or element_bytes < 1.
OpCost add_cost(std::int64_t n, std::int64_t element_bytes);

/// FLOPs per byte moved: the x axis of a roofline.
/// @throws std::invalid_argument unless cost.bytes is a number > 0 (NaN is not).
double arithmetic_intensity(const OpCost& cost);

/// The roofline: the best GFLOP/s an op of this intensity can reach on a device with this peak
/// compute rate and memory bandwidth (GB/s): limited by bandwidth at low intensity, by compute at
/// high intensity.
/// @throws std::invalid_argument unless every argument is a number > 0 (NaN is not).
double roofline_gflops(double intensity, double peak_gflops, double bandwidth_gb_s);

/// One timed operation: the median milliseconds of `op` at `size` on `device` ("cpu", "cuda", ...).
struct Measurement {
    std::string op;
    std::int64_t size = 0;
    std::string device;
    double median_ms = 0;
};

/// One row of the CPU-against-device table.
struct SpeedupRow {
    std::string op;
    std::int64_t size = 0;
    double cpu_ms = 0;
    double device_ms = 0;
    double speedup = 0;  ///< cpu_ms / device_ms: above 1 the device is faster.
    std::string faster;  ///< `device` when speedup > 1, else "cpu".
};

/// Pairs every (op, size) measured on "cpu" with the same (op, size) measured on `device`, one
/// row each, sorted by op name, then by size (numerically). Measurements on other devices are
/// ignored.
/// @throws std::invalid_argument if `device` is "cpu"; if a median is not a finite number > 0; if
///         an (op, size) is measured on one of the two devices but not on the other, or twice on
///         the same one.
std::vector<SpeedupRow> speedup_table(const std::vector<Measurement>& measurements,
                                      const std::string& device);

}  // namespace ex
