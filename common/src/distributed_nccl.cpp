/// @file distributed_nccl.cpp
/// @brief NCCL process groups: compiled where LibTorch has CUDA (TL_HAVE_NCCL), run on GPUs.
///
/// ProcessGroupNCCL.hpp includes <nccl.h>. The torch wheel links its own NCCL (nvidia/nccl in
/// site-packages), which may be newer than the CUDA toolkit's copy: the build puts the wheel's
/// include folder first, so that the declarations match the library that runs.
#include "torchlings/distributed.h"

#if TL_HAVE_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace torchlings::dist {

bool nccl_compiled() { return TL_HAVE_NCCL != 0; }

c10::intrusive_ptr<c10d::Backend> make_nccl_group(const c10::intrusive_ptr<c10d::Store>& store,
                                                  int rank, int world_size,
                                                  std::chrono::milliseconds timeout) {
#if TL_HAVE_NCCL
    auto options = c10d::ProcessGroupNCCL::Options::create();
    options->timeout = timeout;
    return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, world_size, options);
#else
    (void)store;
    (void)rank;
    (void)world_size;
    (void)timeout;
    throw RendezvousError("this LibTorch has no NCCL (a CPU-only build): use Gloo on the CPU");
#endif
}

}  // namespace torchlings::dist
