/// @file tensors.h
/// @brief What a test that uses the whole LibTorch API includes: <torch/torch.h> and the
/// tensor assertions of tl_test/compare.h.
#pragma once

#include <torch/torch.h>

#include "tl_test/compare.h"
