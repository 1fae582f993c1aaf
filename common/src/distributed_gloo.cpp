/// @file distributed_gloo.cpp
/// @brief The one file that includes ProcessGroupGloo.hpp, and with it Gloo's own headers.
///
/// The torch wheel exports ProcessGroupGloo's symbols but does not ship the Gloo headers its
/// header includes; they come from the system (Debian, Ubuntu: libgloo-dev, headers only, nothing
/// of it is linked). Without them (TL_HAVE_GLOO 0) make_gloo_group() says what to install.
#include "torchlings/distributed.h"

#include <cstdlib>

#if TL_HAVE_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif

namespace torchlings::dist {

c10::intrusive_ptr<c10d::Backend> make_gloo_group(const c10::intrusive_ptr<c10d::Store>& store,
                                                  int rank, int world_size,
                                                  std::chrono::milliseconds timeout,
                                                  bool loopback) {
#if TL_HAVE_GLOO
    auto options = c10d::ProcessGroupGloo::Options::create(timeout);
    // GLOO_SOCKET_IFNAME names the network interface on machines with several (PyTorch's Python
    // side reads it too); without it, one machine's ranks talk over the loopback, several
    // machines' over the address their host name resolves to.
    const char* interface = std::getenv("GLOO_SOCKET_IFNAME");
    if (interface != nullptr && *interface != '\0') {
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
    } else {
        options->devices.push_back(
            loopback ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                     : c10d::ProcessGroupGloo::createDefaultDevice());
    }
    return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, options);
#else
    (void)store;
    (void)rank;
    (void)world_size;
    (void)timeout;
    (void)loopback;
#if defined(__APPLE__)
    throw RendezvousError(
        "this build has no Gloo process group: Gloo's headers were not found when it was "
        "configured. On macOS the set-up fetches them (Debian's libgloo-dev) into the cache "
        "folder: run ./torchlings setup, which says why when it cannot (docs/platforms.md, "
        "'macOS')");
#else
    throw RendezvousError(
        "this build has no Gloo process group: Gloo's headers were not found when it was "
        "configured. Install them (sudo apt-get install libgloo-dev), then reconfigure "
        "(./torchlings doctor)");
#endif
#endif
}

}  // namespace torchlings::dist
