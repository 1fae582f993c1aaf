/// @file steps.h
/// @brief The steps of the sum reduction, from naive to fast. No LibTorch, no CUDA.
#pragma once

namespace torchlings::kernels {

/// How the GPU sum combines and loads; each step keeps the previous one's ideas.
enum class SumStep {
    kAtomics,     ///< 1. grid-stride partial per thread, one atomicAdd per thread into the result
    kSharedTree,  ///< 2. partials combined per block by a tree in shared memory, then a second pass
    kWarpShuffle,  ///< 3. the tree's first five levels done in registers by warp shuffles
    kVectorised,   ///< 4. float4 loads, 16 floats in flight per thread, grid sized from SM count
};

/// The step's name as the benchmarks and the lesson print it ("atomics", "shared_tree", ...).
constexpr const char* sum_step_name(SumStep step) {
    switch (step) {
        case SumStep::kAtomics:
            return "atomics";
        case SumStep::kSharedTree:
            return "shared_tree";
        case SumStep::kWarpShuffle:
            return "warp_shuffle";
        case SumStep::kVectorised:
            return "vectorised";
    }
    return "unknown";
}

/// Every step, in order.
inline constexpr SumStep kSumSteps[] = {SumStep::kAtomics, SumStep::kSharedTree,
                                        SumStep::kWarpShuffle, SumStep::kVectorised};

}  // namespace torchlings::kernels
