/// @file distributed.h
/// @brief Several processes, one job: the launcher's variables, the rendezvous store and the
/// process groups of c10d (PyTorch's own distributed engine: Gloo on the CPU, NCCL on GPUs).
///
/// A launcher such as torchrun starts one process per device and tells each, through environment
/// variables, who it is (RANK, LOCAL_RANK), how many there are (WORLD_SIZE) and where to meet
/// (MASTER_ADDR:MASTER_PORT). The processes meet in a key-value store (c10d::TCPStore), and the
/// process group built on it runs the collectives. This header includes no Gloo or NCCL header:
/// only distributed_gloo.cpp and distributed_nccl.cpp do.
#pragma once

#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace torchlings::dist {

/// What a launcher tells one process about the job (torchrun's variables).
struct LaunchInfo {
    int rank = 0;        ///< RANK: this process's number in the job, 0 .. world_size - 1
    int world_size = 1;  ///< WORLD_SIZE: how many processes the job has, on all machines
    int local_rank = 0;  ///< LOCAL_RANK: its number on this machine (picks the GPU: cuda:N)
    /// LOCAL_WORLD_SIZE: how many of the job's processes run on this machine (torchrun sets it;
    /// 1 for a process alone; unknown when a launcher sets only RANK, WORLD_SIZE and LOCAL_RANK).
    std::optional<int> local_world_size = 1;
    std::string master_addr = "127.0.0.1";  ///< MASTER_ADDR: where the store is served
    int master_port = 29500;                ///< MASTER_PORT: the store's TCP port
    /// TORCHELASTIC_USE_AGENT_STORE=True: torchrun's agent already serves the store, so every
    /// rank (rank 0 too) connects to it as a client.
    bool agent_store = false;
    bool launched = false;  ///< true when the variables were set (false: one process alone)
    /// TORCHELASTIC_RESTART_COUNT: how many times torchrun has restarted the group (0 at first).
    int restart = 0;
    /// GROUP_RANK: the number of the launcher's agent (one per machine) this process came from.
    int node_rank = 0;
};

/// Reads a variable; std::nullopt when unset. Tests pass their own map instead of the
/// environment.
using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

/// The process environment, as an EnvLookup.
[[nodiscard]] EnvLookup process_environment();

/// Reads RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT,
/// TORCHELASTIC_USE_AGENT_STORE, TORCHELASTIC_RESTART_COUNT and GROUP_RANK. Without RANK and
/// WORLD_SIZE the process is alone: rank 0 of 1.
/// @throws std::invalid_argument naming the variable, its value and what was expected, when one
///         is not a number, out of range, or when only one of RANK and WORLD_SIZE is set.
[[nodiscard]] LaunchInfo read_launch_info(const EnvLookup& env = process_environment());

/// The timeout of the rendezvous and of every collective: TORCHLINGS_DIST_TIMEOUT_S when set
/// (seconds, > 0), else `fallback`.
/// @throws std::invalid_argument when the variable is set but not a positive number.
[[nodiscard]] std::chrono::milliseconds timeout_from_env(
    std::chrono::milliseconds fallback, const EnvLookup& env = process_environment());

/// A failure to assemble the job (a rank that never arrived, a port already taken): the message
/// says what happened, to which rank, and what to check.
class RendezvousError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

/// Connects to the job's TCPStore. Rank 0 serves it (unless the launcher's agent does) and waits
/// until all world_size ranks have connected; the others connect to MASTER_ADDR:MASTER_PORT.
/// The agent's store outlives a restart, so each restart's keys go under a prefix of their own.
/// @throws RendezvousError within `timeout` when a rank does not arrive, when the server cannot
///         be reached, or when the port is already in use.
[[nodiscard]] c10::intrusive_ptr<c10d::Store> connect_store(const LaunchInfo& info,
                                                            std::chrono::milliseconds timeout);

/// A Gloo process group (CPU tensors) over `store`: TCP on the loopback interface when
/// `loopback`, else on this machine's hostname (what several machines need). A collective that
/// waits longer than `timeout` for a peer (dead, or never arrived) throws instead of hanging.
/// @throws RendezvousError when this LibTorch or this machine lacks Gloo (the message names the
///         package to install).
[[nodiscard]] c10::intrusive_ptr<c10d::Backend> make_gloo_group(
    const c10::intrusive_ptr<c10d::Store>& store, int rank, int world_size,
    std::chrono::milliseconds timeout, bool loopback = true);

/// True when this build can create NCCL process groups (a CUDA LibTorch).
[[nodiscard]] bool nccl_compiled();

/// An NCCL process group (CUDA tensors, one GPU per rank: cuda:LOCAL_RANK).
/// @throws RendezvousError when this LibTorch has no NCCL.
[[nodiscard]] c10::intrusive_ptr<c10d::Backend> make_nccl_group(
    const c10::intrusive_ptr<c10d::Store>& store, int rank, int world_size,
    std::chrono::milliseconds timeout);

/// The process group's transport: Gloo moves CPU tensors over TCP, NCCL moves CUDA tensors.
enum class BackendKind { kGloo, kNccl };

/// Where one process of a job works and how the processes talk.
struct Placement {
    BackendKind kind = BackendKind::kGloo;  ///< NCCL on GPUs, Gloo on the CPU
    c10::Device device{c10::kCPU};          ///< where this process keeps its model and data
    /// Empty, or one sentence saying why a job that asked for GPUs runs on the CPU.
    std::string note;
};

/// NCCL on cuda:LOCAL_RANK when the job asked for GPUs and every process on this machine has one
/// of its own (NCCL refuses two ranks on one GPU); otherwise Gloo on the CPU, with a note when GPUs
/// were asked for. Every process of a machine decides alike, from the same numbers; without
/// LOCAL_WORLD_SIZE nothing says how many processes share the machine, and NCCL is chosen.
[[nodiscard]] Placement place_process(const LaunchInfo& info, bool gpus_asked, int gpus);

/// A c10d::ProcessGroup (what collectives and c10d::Reducer take) whose default backend is a new
/// Gloo or NCCL group over `store`. Gloo binds the interface GLOO_SOCKET_IFNAME names; without
/// it, the loopback when MASTER_ADDR is a loopback address, else the host name's address. Gloo
/// serves CPU tensors; NCCL serves CUDA tensors.
[[nodiscard]] c10::intrusive_ptr<c10d::ProcessGroup> make_process_group(
    const c10::intrusive_ptr<c10d::Store>& store, int rank, int world_size,
    std::chrono::milliseconds timeout, BackendKind kind = BackendKind::kGloo);

/// A free TCP port on 127.0.0.1 at the time of the call (the operating system's choice).
[[nodiscard]] int free_port();

}  // namespace torchlings::dist
