/// @file distributed.cpp
/// @brief The launcher's variables, the rendezvous store, and their error messages.
#include "torchlings/distributed.h"

#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <c10/util/Exception.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace torchlings::dist {
namespace {

/// `text` as an int in [low, high], or an std::invalid_argument naming `name`.
int parse_int(const std::string& name, const std::string& text, int low, int high) {
    int value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || ptr != end || value < low || value > high) {
        throw std::invalid_argument(name + "='" + text + "': expected a whole number from " +
                                    std::to_string(low) + " to " + std::to_string(high));
    }
    return value;
}

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

std::string seconds(std::chrono::milliseconds timeout) {
    const auto count = timeout.count();
    return count % 1000 == 0 ? std::to_string(count / 1000) + " s" : std::to_string(count) + " ms";
}

}  // namespace

EnvLookup process_environment() {
    return [](const std::string& name) -> std::optional<std::string> {
        // NOLINTNEXTLINE(concurrency-mt-unsafe): read before any thread of ours starts
        const char* value = std::getenv(name.c_str());
        return value == nullptr ? std::nullopt : std::optional<std::string>(value);
    };
}

LaunchInfo read_launch_info(const EnvLookup& env) {
    LaunchInfo info;
    const auto rank = env("RANK");
    const auto world = env("WORLD_SIZE");
    if (rank.has_value() != world.has_value()) {
        throw std::invalid_argument(std::string("RANK and WORLD_SIZE must be set together (") +
                                    (rank ? "RANK" : "WORLD_SIZE") + " is set, " +
                                    (rank ? "WORLD_SIZE" : "RANK") +
                                    " is not): start the program with torchrun, or set both");
    }
    if (!rank) {
        return info;  // alone: rank 0 of 1, nothing to meet
    }
    constexpr int kMaxWorld = 1 << 20;
    info.launched = true;
    info.world_size = parse_int("WORLD_SIZE", *world, 1, kMaxWorld);
    info.rank = parse_int("RANK", *rank, 0, info.world_size - 1);
    if (const auto local = env("LOCAL_RANK")) {
        info.local_rank = parse_int("LOCAL_RANK", *local, 0, info.world_size - 1);
    } else {
        info.local_rank = info.rank;
    }
    info.local_world_size = std::nullopt;
    if (const auto local_world = env("LOCAL_WORLD_SIZE")) {
        info.local_world_size = parse_int("LOCAL_WORLD_SIZE", *local_world, 1, info.world_size);
        if (info.local_rank >= *info.local_world_size) {
            throw std::invalid_argument(
                "LOCAL_RANK=" + std::to_string(info.local_rank) +
                " is not below LOCAL_WORLD_SIZE=" + std::to_string(*info.local_world_size));
        }
    }
    if (const auto addr = env("MASTER_ADDR")) {
        if (addr->empty()) {
            throw std::invalid_argument("MASTER_ADDR is empty: expected a host name or address");
        }
        info.master_addr = *addr;
    }
    if (const auto port = env("MASTER_PORT")) {
        constexpr int kMaxPort = 65535;
        info.master_port = parse_int("MASTER_PORT", *port, 0, kMaxPort);
    }
    info.agent_store = env("TORCHELASTIC_USE_AGENT_STORE").value_or("") == "True";
    if (const auto restart = env("TORCHELASTIC_RESTART_COUNT")) {
        constexpr int kMaxRestarts = 1 << 20;
        info.restart = parse_int("TORCHELASTIC_RESTART_COUNT", *restart, 0, kMaxRestarts);
    }
    if (const auto node = env("GROUP_RANK")) {
        info.node_rank = parse_int("GROUP_RANK", *node, 0, info.world_size - 1);
    }
    return info;
}

Placement place_process(const LaunchInfo& info, bool gpus_asked, int gpus) {
    Placement placement;
    if (!gpus_asked) {
        return placement;
    }
    if (!info.local_world_size || *info.local_world_size <= gpus) {
        placement.kind = BackendKind::kNccl;
        placement.device = c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(info.local_rank));
        return placement;
    }
    placement.note = std::to_string(*info.local_world_size) + " processes on this machine but " +
                     std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs") +
                     ", and NCCL needs a GPU for each; torchrun --nproc-per-node=" +
                     std::to_string(std::max(gpus, 1)) + " puts one process on each GPU";
    return placement;
}

std::chrono::milliseconds timeout_from_env(std::chrono::milliseconds fallback,
                                           const EnvLookup& env) {
    const auto text = env("TORCHLINGS_DIST_TIMEOUT_S");
    if (!text) {
        return fallback;
    }
    constexpr int kDay = 86400;
    return std::chrono::seconds(parse_int("TORCHLINGS_DIST_TIMEOUT_S", *text, 1, kDay));
}

c10::intrusive_ptr<c10d::Store> connect_store(const LaunchInfo& info,
                                              std::chrono::milliseconds timeout) {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(info.master_port);
    options.isServer = info.rank == 0 && !info.agent_store;
    options.numWorkers = static_cast<std::size_t>(info.world_size);
    // Every rank counts itself in (clients too); only the server waits for the count.
    options.waitWorkers = true;
    options.timeout = timeout;
    const std::string where = info.master_addr + ":" + std::to_string(info.master_port);
    try {
        auto store = c10::make_intrusive<c10d::TCPStore>(info.master_addr, options);
        if (!info.agent_store) {
            return store;
        }
        // torchrun's agent serves one store for the job's whole life: after a restart it still
        // holds the dead processes' addresses, which Gloo would try to connect to. Each attempt
        // gets keys of its own, under the prefix PyTorch's Python side uses too.
        return c10::make_intrusive<c10d::PrefixStore>(
            "/worker/attempt_" + std::to_string(info.restart), store);
    } catch (const c10::Error& error) {
        const std::string text = error.what_without_backtrace();
        if (contains(text, "EADDRINUSE") || contains(text, "address already in use")) {
            throw RendezvousError(
                "rank 0 cannot serve the store: port " + std::to_string(info.master_port) +
                " is already in use (another job, or an earlier run still closing, holds it). "
                "Pick a free port: MASTER_PORT=<port>, or torchrun --master-port=<port> "
                "(torchrun --standalone picks one itself)");
        }
        if (options.isServer && contains(text, "waiting for clients")) {
            throw RendezvousError("rank 0 of " + std::to_string(info.world_size) +
                                  ": not every rank arrived at " + where + " within " +
                                  seconds(timeout) + " (" + text.substr(0, text.find('\n')) +
                                  "). Were all " + std::to_string(info.world_size) +
                                  " processes started, with the same MASTER_ADDR:MASTER_PORT?");
        }
        throw RendezvousError("rank " + std::to_string(info.rank) + " of " +
                              std::to_string(info.world_size) + " could not reach the store at " +
                              where + " within " + seconds(timeout) + " (" +
                              text.substr(0, text.find('\n')) +
                              "). Is rank 0 running, and is MASTER_ADDR:MASTER_PORT the same "
                              "for every rank?");
    }
}

c10::intrusive_ptr<c10d::ProcessGroup> make_process_group(
    const c10::intrusive_ptr<c10d::Store>& store, int rank, int world_size,
    std::chrono::milliseconds timeout, BackendKind kind) {
    auto group = c10::make_intrusive<c10d::ProcessGroup>(store, rank, world_size);
    try {
        if (kind == BackendKind::kNccl) {
            auto backend = make_nccl_group(store, rank, world_size, timeout);
            group->setBackend(c10::DeviceType::CUDA, c10d::ProcessGroup::BackendType::NCCL,
                              backend);
            group->setDefaultBackend(c10d::ProcessGroup::BackendType::NCCL);
        } else {
            // The loopback only when MASTER_ADDR is on this machine's loopback: ranks on other
            // machines could not reach an address of 127.0.0.0/8.
            const char* master = std::getenv("MASTER_ADDR");
            const std::string addr = master == nullptr ? "127.0.0.1" : master;
            const bool loopback =
                addr == "localhost" || addr.rfind("127.", 0) == 0 || addr == "::1";
            auto backend = make_gloo_group(store, rank, world_size, timeout, loopback);
            group->setBackend(c10::DeviceType::CPU, c10d::ProcessGroup::BackendType::GLOO, backend);
            group->setDefaultBackend(c10d::ProcessGroup::BackendType::GLOO);
        }
    } catch (const RendezvousError&) {
        throw;
    } catch (const std::exception& error) {
        // Each rank publishes its address in the store and connects to every other: a rank
        // that died after the store's rendezvous is noticed here.
        const std::string text = error.what();
        throw RendezvousError("rank " + std::to_string(rank) + " of " + std::to_string(world_size) +
                              ": the process group could not connect to every rank within " +
                              seconds(timeout) + " (" + text.substr(0, text.find('\n')) +
                              "). Did another rank stop?");
    }
    return group;
}

int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        throw std::runtime_error(std::string("free_port: socket() failed: ") +
                                 std::strerror(errno));
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;  // the kernel picks a free one
    socklen_t length = sizeof(address);
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API
    auto* generic = reinterpret_cast<sockaddr*>(&address);
    if (::bind(fd, generic, sizeof(address)) != 0 || ::getsockname(fd, generic, &length) != 0) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        throw std::runtime_error("free_port: could not bind 127.0.0.1:0: " + reason);
    }
    ::close(fd);
    return ntohs(address.sin_port);
}

}  // namespace torchlings::dist
