// Mistake: Registers scale as a parameter
// It moves and saves, but an optimizer would train it: a fixed matrix is a buffer. The tests
// count two parameters and look for "scale" among the buffers.
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
      // A buffer is state that to(), save()/load() and named_buffers() see, but no optimizer.
      scale(register_parameter("scale", scale_matrix.clone(), /*requires_grad=*/false)) {}

torch::Tensor ScaledLinearImpl::forward(const torch::Tensor& x) {
    // matmul does not mix dtypes or devices: it needs scale where x and the weights are.
    return at::linear(x.matmul(scale), weight, bias);
}

}  // namespace ex
