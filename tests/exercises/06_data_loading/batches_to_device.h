/// @file batches_to_device.h
/// @brief Exercise batches_to_device: the API the learner's file implements and the tests call.
#pragma once

#include "labeled_tensors.h"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>

#include <cstdint>
#include <functional>

namespace ex {

/// What one epoch saw.
struct EpochCount {
    std::int64_t samples = 0;  ///< Rows of all batches together.
    std::int64_t batches = 0;  ///< Batches received.
};

/// Whether a copy of a tensor on `source` (pinned or not) to `target` can overlap with other
/// work: only a copy from PINNED CPU memory to a CUDA device is truly asynchronous.
bool copy_can_be_async(c10::Device source, bool source_pinned, c10::Device target);

/// The step a training loop runs on each batch, once the batch is where the model is.
using Step = std::function<void(const at::Tensor& data, const at::Tensor& target)>;

/// One epoch of a training loop: for every batch of `loader`, moves the data to `device` AND
/// `dtype` (the model's) and the target to `device` (keeping its dtype), with non_blocking set
/// when copy_can_be_async() says so; calls `step(data, target)`; counts samples and batches.
/// @throws std::invalid_argument if `step` is empty (before the loader is touched).
EpochCount run_epoch(OrderedLoader& loader, c10::Device device, c10::ScalarType dtype,
                     const Step& step);

}  // namespace ex
