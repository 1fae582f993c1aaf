// Mistake: Count n^3 FLOPs for an n x n matmul
// Each of the n^3 multiply-adds is two floating-point operations, so the count is 2 n^3;
// with n^3 every GFLOP/s figure and the intensity are half the truth.
/// @file speedup_table.cpp
/// @brief Solution of speedup_table (lesson 08).
#include "speedup_table.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace ex {

namespace {

void check_sizes(const char* what, std::int64_t n, std::int64_t element_bytes) {
    if (n < 1 || element_bytes < 1) {
        throw std::invalid_argument(std::string(what) +
                                    ": expected n >= 1 and element_bytes >= 1, got " +
                                    std::to_string(n) + " and " + std::to_string(element_bytes));
    }
}

}  // namespace

OpCost matmul_cost(std::int64_t n, std::int64_t element_bytes) {
    check_sizes("matmul_cost", n, element_bytes);
    const auto d = static_cast<double>(n);
    // n^2 outputs, each a dot product of n multiply-adds (2 FLOPs); three n x n matrices move.
    return {d * d * d, 3.0 * d * d * static_cast<double>(element_bytes)};
}

OpCost add_cost(std::int64_t n, std::int64_t element_bytes) {
    check_sizes("add_cost", n, element_bytes);
    const auto d = static_cast<double>(n);
    return {d, 3.0 * d * static_cast<double>(element_bytes)};  // read a and b, write c
}

double arithmetic_intensity(const OpCost& cost) {
    if (!(cost.bytes > 0)) {
        throw std::invalid_argument("arithmetic_intensity: expected bytes > 0, got " +
                                    std::to_string(cost.bytes));
    }
    return cost.flops / cost.bytes;
}

double roofline_gflops(double intensity, double peak_gflops, double bandwidth_gb_s) {
    if (!(intensity > 0) || !(peak_gflops > 0) || !(bandwidth_gb_s > 0)) {
        throw std::invalid_argument(
            "roofline_gflops: expected intensity, peak and bandwidth > 0, got " +
            std::to_string(intensity) + ", " + std::to_string(peak_gflops) + " and " +
            std::to_string(bandwidth_gb_s));
    }
    // Memory can feed at most intensity * bandwidth FLOP/s; the units cannot exceed their peak.
    return std::min(peak_gflops, intensity * bandwidth_gb_s);
}

std::vector<SpeedupRow> speedup_table(const std::vector<Measurement>& measurements,
                                      const std::string& device) {
    if (device == "cpu") {
        throw std::invalid_argument(
            "speedup_table: expected a device other than cpu to compare with, got cpu");
    }
    // Keyed by (op, size): a std::map keeps them sorted by op, then numerically by size.
    std::map<std::pair<std::string, std::int64_t>, std::pair<double, double>> pairs;
    for (const auto& m : measurements) {
        if (m.device != "cpu" && m.device != device) {
            continue;
        }
        if (!std::isfinite(m.median_ms) || m.median_ms <= 0) {
            throw std::invalid_argument("speedup_table: expected a median > 0 ms, got " +
                                        std::to_string(m.median_ms) + " for " + m.op + " " +
                                        std::to_string(m.size) + " on " + m.device);
        }
        auto& slot = pairs[{m.op, m.size}];
        double& ms = m.device == "cpu" ? slot.first : slot.second;
        if (ms != 0) {
            throw std::invalid_argument("speedup_table: " + m.op + " " + std::to_string(m.size) +
                                        " is measured twice on " + m.device);
        }
        ms = m.median_ms;
    }
    std::vector<SpeedupRow> rows;
    for (const auto& [key, times] : pairs) {
        const auto& [op, size] = key;
        if (times.first == 0 || times.second == 0) {
            throw std::invalid_argument("speedup_table: " + op + " " + std::to_string(size) +
                                        " is measured on " + (times.first == 0 ? device : "cpu") +
                                        " only; expected it on both cpu and " + device);
        }
        const double speedup = times.first / times.second;
        rows.push_back({op, size, times.first, times.second, speedup,
                        speedup > 1.0 ? device : std::string("cpu")});
    }
    return rows;
}

}  // namespace ex
