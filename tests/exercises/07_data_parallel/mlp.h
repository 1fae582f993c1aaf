/// @file mlp.h
/// @brief Mlp, the small classifier that lesson 07's exercises replicate and train: the course's
/// torchlings::Mlp (common/include/torchlings/mlp.h), named in the exercises' namespace.
#pragma once

#include <torchlings/mlp.h>

namespace ex {

using torchlings::Mlp;      ///< `Mlp net(8, 32, 4);` in_features -> hidden -> classes.
using torchlings::MlpImpl;  ///< what clone() returns, behind a shared pointer.

}  // namespace ex
