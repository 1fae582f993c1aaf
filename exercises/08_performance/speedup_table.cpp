/// @file speedup_table.cpp
/// @brief Exercise speedup_table (lesson 08): what an op costs, and who wins at each size.
///
/// A measured time means little alone. Count the work (FLOPs) and the traffic (bytes) to see
/// whether an op is limited by compute or by memory, then pair CPU and device times into the
/// table the lesson prints: which device wins, and by how much, at each size.
/// Check it with: ./torchlings check speedup_table      Stuck? ./torchlings hint speedup_table
#include "speedup_table.h"

#include <torchlings/exercise.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace ex {

OpCost matmul_cost(std::int64_t n, std::int64_t element_bytes) {
    // TODO: reject n < 1 or element_bytes < 1 with std::invalid_argument.
    // TODO: n x n outputs, each n multiply-adds (2 FLOPs each); three n x n matrices move.
    (void)n;
    (void)element_bytes;
    TL_TODO("matmul_cost: FLOPs and bytes of a square matrix product");
}

OpCost add_cost(std::int64_t n, std::int64_t element_bytes) {
    // TODO: reject n < 1 or element_bytes < 1; then n FLOPs, and a, b read and c written.
    (void)n;
    (void)element_bytes;
    TL_TODO("add_cost: FLOPs and bytes of an elementwise add");
}

double arithmetic_intensity(const OpCost& cost) {
    // TODO: FLOPs per byte; reject bytes <= 0.
    (void)cost;
    TL_TODO("arithmetic_intensity: flops / bytes");
}

double roofline_gflops(double intensity, double peak_gflops, double bandwidth_gb_s) {
    // TODO: reject any argument <= 0; then the lower of the two roofs.
    (void)intensity;
    (void)peak_gflops;
    (void)bandwidth_gb_s;
    TL_TODO("roofline_gflops: the compute roof or the bandwidth roof, whichever is lower");
}

std::vector<SpeedupRow> speedup_table(const std::vector<Measurement>& measurements,
                                      const std::string& device) {
    // TODO: reject device == "cpu".
    // TODO: collect each (op, size)'s cpu time and `device` time, ignoring other devices;
    //       reject a median that is not finite or not > 0, and a second measurement of the
    //       same (op, size, device).
    // TODO: one row per (op, size), sorted by op then size; reject a pair with one side missing.
    //       speedup = cpu_ms / device_ms; faster = device when speedup > 1, else "cpu".
    (void)measurements;
    (void)device;
    TL_TODO("speedup_table: pair CPU and device times by (op, size)");
}

}  // namespace ex
