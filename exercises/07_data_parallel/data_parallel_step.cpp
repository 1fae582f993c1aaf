/// @file data_parallel_step.cpp
/// @brief Exercise data_parallel_step (lesson 07): one data-parallel SGD step, built by hand.
///
/// Put the pieces together: scatter the batch, replicate the model, run every shard's forward and
/// backward on its own thread, reduce the gradients into the original and step its optimizer.
/// Done right, the new parameters equal those of one single-device step on the whole batch.
/// Check it with: ./torchlings check data_parallel_step      Stuck? ./torchlings hint
/// data_parallel_step
#include "data_parallel_step.h"

#include <torchlings/device.h>
#include <torchlings/exercise.h>

#include <ATen/ops/cross_entropy_loss.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace ex {

double data_parallel_step(Mlp& model, torch::optim::Optimizer& optimizer, const at::Tensor& inputs,
                          const at::Tensor& targets, const std::vector<c10::Device>& devices) {
    // TODO: reject no devices, and inputs/targets without the same number (>= 1) of rows.
    // TODO: 1. split inputs and targets into min(B, devices.size()) near-equal shards, in order.
    // TODO: 2. clone the model onto the device of each shard.
    // TODO: 3. one std::thread per shard: torchlings::use_device_in_this_thread(its device),
    //          move the shard to its device, compute
    //          at::cross_entropy_loss(replica output, targets), backward(), keep loss.item();
    //          catch exceptions inside the thread and rethrow them after join().
    // TODO: 4. set each of model's parameter gradients to the replicas' gradients weighted by
    //          shard size / B, on the model's device.
    // TODO: 5. optimizer.step(), and return the shard losses weighted the same way.
    (void)model;
    (void)optimizer;
    (void)inputs;
    (void)targets;
    (void)devices;
    TL_TODO("data_parallel_step: scatter, replicate, parallel backward, average, step");
}

}  // namespace ex
