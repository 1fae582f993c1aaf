/// @file to_host_vector.h
/// @brief Exercise to_host_vector: the API the learner's file implements and the tests call.
#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

namespace ex {

/// The values of `t` as a std::vector<float>, in logical row-major order (the order `t` prints
/// in), whatever its device, its real dtype (integers, bool, float16, float64 ...) and its
/// strides (transposed, sliced and expanded views included). `t` itself is left unchanged.
/// The C++ counterpart of Python's `t.detach().cpu().numpy().ravel().tolist()`.
/// @throws std::invalid_argument if `t` is undefined.
std::vector<float> to_host_vector(const at::Tensor& t);

}  // namespace ex
