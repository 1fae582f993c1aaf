/// @file register_the_buffer.cpp
/// @brief Exercise register_the_buffer (lesson 04): make a fixed tensor travel with its model.
///
/// ScaledLinear keeps its fixed `scale` matrix as a plain tensor member. Module::to() moves only
/// what is registered, so after model->to(torch::kFloat64) the weights are float64, `scale` is
/// still float32, and forward fails; on a GPU it would be left on the CPU. torch::save() skips it
/// too. Fix the constructor so that `scale` is part of the model.
/// Check it with: ./torchlings check register_the_buffer
/// Stuck? ./torchlings hint register_the_buffer
#include "register_the_buffer.h"

#include <cmath>

namespace ex {

namespace {

/// The side of a square matrix; throws for anything else.
std::int64_t square_side(const torch::Tensor& matrix) {
    TORCH_CHECK(matrix.dim() == 2 && matrix.size(0) == matrix.size(1),
                "ScaledLinear: expected a square [in, in] scale matrix, got sizes ",
                matrix.sizes());
    return matrix.size(0);
}

}  // namespace

ScaledLinearImpl::ScaledLinearImpl(const torch::Tensor& scale_matrix, std::int64_t out_features)
    : weight(
          register_parameter("weight", at::randn({out_features, square_side(scale_matrix)}) /
                                           std::sqrt(static_cast<double>(scale_matrix.size(0))))),
      bias(register_parameter("bias", at::zeros({out_features}))),
      // TODO: a plain member is invisible to to(), save() and named_buffers(): register the copy
      //       as a buffer named "scale" (register_buffer returns a reference to the registered
      //       tensor).
      scale(scale_matrix.clone()) {}

torch::Tensor ScaledLinearImpl::forward(const torch::Tensor& x) {
    // matmul does not mix dtypes or devices: it needs scale where x and the weights are.
    return at::linear(x.matmul(scale), weight, bias);
}

}  // namespace ex
