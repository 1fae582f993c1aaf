/// @file launch_info_test.cpp
/// @brief Unit tests of torchlings/distributed.h's launcher variables and timeout.
#include <torchlings/distributed.h>

#include "tl_test/catch.h"

#include <map>
#include <stdexcept>

namespace {

namespace dist = torchlings::dist;

dist::EnvLookup env_of(std::map<std::string, std::string> values) {
    return [values](const std::string& name) -> std::optional<std::string> {
        const auto found = values.find(name);
        return found == values.end() ? std::nullopt : std::optional<std::string>(found->second);
    };
}

/// The message of the std::invalid_argument that read_launch_info throws, or "" if none.
std::string refusal(std::map<std::string, std::string> values) {
    try {
        (void)dist::read_launch_info(env_of(std::move(values)));
    } catch (const std::invalid_argument& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("without a launcher the process is rank 0 of 1", "[distributed]") {
    const auto info = dist::read_launch_info(env_of({}));
    CHECK(info.rank == 0);
    CHECK(info.world_size == 1);
    CHECK_FALSE(info.launched);
}

TEST_CASE("torchrun's variables are read", "[distributed]") {
    const auto info = dist::read_launch_info(env_of({{"RANK", "3"},
                                                     {"WORLD_SIZE", "4"},
                                                     {"LOCAL_RANK", "1"},
                                                     {"MASTER_ADDR", "10.0.0.1"},
                                                     {"MASTER_PORT", "29501"},
                                                     {"TORCHELASTIC_USE_AGENT_STORE", "True"}}));
    CHECK(info.launched);
    CHECK(info.rank == 3);
    CHECK(info.world_size == 4);
    CHECK(info.local_rank == 1);
    CHECK(info.master_addr == "10.0.0.1");
    CHECK(info.master_port == 29501);
    CHECK(info.agent_store);
}

TEST_CASE("a restarted group knows its restart and each process its node", "[distributed]") {
    const auto first = dist::read_launch_info(env_of({{"RANK", "2"}, {"WORLD_SIZE", "4"}}));
    CHECK(first.restart == 0);
    CHECK(first.node_rank == 0);
    const auto info = dist::read_launch_info(env_of({{"RANK", "2"},
                                                     {"WORLD_SIZE", "4"},
                                                     {"GROUP_RANK", "1"},
                                                     {"TORCHELASTIC_RESTART_COUNT", "2"}}));
    CHECK(info.restart == 2);
    CHECK(info.node_rank == 1);
    CHECK_THAT(refusal({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"TORCHELASTIC_RESTART_COUNT", "-1"}}),
               Catch::Matchers::ContainsSubstring("TORCHELASTIC_RESTART_COUNT"));
    CHECK_THAT(refusal({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"GROUP_RANK", "x"}}),
               Catch::Matchers::ContainsSubstring("GROUP_RANK"));
}

TEST_CASE("bad variables are refused by name", "[distributed]") {
    CHECK_THAT(refusal({{"RANK", "x"}, {"WORLD_SIZE", "2"}}),
               Catch::Matchers::ContainsSubstring("RANK='x': expected a whole number from 0 to 1"));
    CHECK_THAT(refusal({{"RANK", "2"}, {"WORLD_SIZE", "2"}}),
               Catch::Matchers::ContainsSubstring("RANK='2'"));
    CHECK_THAT(refusal({{"RANK", "0"}, {"WORLD_SIZE", "0"}}),
               Catch::Matchers::ContainsSubstring("WORLD_SIZE='0'"));
    CHECK_THAT(refusal({{"RANK", "0"}}),
               Catch::Matchers::ContainsSubstring("must be set together"));
    CHECK_THAT(refusal({{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"MASTER_PORT", "70000"}}),
               Catch::Matchers::ContainsSubstring("MASTER_PORT='70000'"));
}

TEST_CASE("the timeout comes from TORCHLINGS_DIST_TIMEOUT_S when set", "[distributed]") {
    using std::chrono::milliseconds;
    CHECK(dist::timeout_from_env(milliseconds(5000), env_of({})) == milliseconds(5000));
    CHECK(dist::timeout_from_env(milliseconds(5000), env_of({{"TORCHLINGS_DIST_TIMEOUT_S",
                                                              "3"}})) == milliseconds(3000));
    CHECK_THROWS_AS(
        dist::timeout_from_env(milliseconds(5000), env_of({{"TORCHLINGS_DIST_TIMEOUT_S", "0"}})),
        std::invalid_argument);
}

TEST_CASE("free_port gives a port a server can bind", "[distributed]") {
    const int port = dist::free_port();
    CHECK(port > 0);
    CHECK(port < 65536);
}

TEST_CASE("LOCAL_WORLD_SIZE is read, and unknown when a launcher does not set it",
          "[distributed]") {
    CHECK(dist::read_launch_info(env_of({})).local_world_size == 1);  // a process alone
    CHECK_FALSE(dist::read_launch_info(env_of({{"RANK", "1"}, {"WORLD_SIZE", "4"}}))
                    .local_world_size.has_value());
    const auto info = dist::read_launch_info(env_of(
        {{"RANK", "3"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "1"}, {"LOCAL_WORLD_SIZE", "2"}}));
    CHECK(info.local_world_size == 2);
    CHECK_THAT(refusal({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"LOCAL_WORLD_SIZE", "3"}}),
               Catch::Matchers::ContainsSubstring("LOCAL_WORLD_SIZE"));
    CHECK_THAT(
        refusal(
            {{"RANK", "1"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "2"}, {"LOCAL_WORLD_SIZE", "2"}}),
        Catch::Matchers::ContainsSubstring("LOCAL_RANK=2 is not below LOCAL_WORLD_SIZE=2"));
}

TEST_CASE("a process gets a GPU of its own or the job runs on the CPU", "[distributed]") {
    const auto two_on_this_machine = dist::read_launch_info(env_of(
        {{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "1"}, {"LOCAL_WORLD_SIZE", "2"}}));
    // As many GPUs as processes: NCCL, and LOCAL_RANK picks the GPU.
    const auto nccl = dist::place_process(two_on_this_machine, true, 2);
    CHECK(nccl.kind == dist::BackendKind::kNccl);
    CHECK(nccl.device == c10::Device(c10::kCUDA, 1));
    CHECK(nccl.note.empty());
    // Two processes, one GPU (a Colab notebook): NCCL would refuse, so Gloo on the CPU, said why.
    const auto shared = dist::place_process(two_on_this_machine, true, 1);
    CHECK(shared.kind == dist::BackendKind::kGloo);
    CHECK(shared.device == c10::Device(c10::kCPU));
    CHECK_THAT(shared.note, Catch::Matchers::ContainsSubstring("2 processes on this machine but 1 "
                                                               "GPU") &&
                                Catch::Matchers::ContainsSubstring("--nproc-per-node=1"));
    // A launcher that does not say how many processes share the machine (two machines of 8 GPUs,
    // started without torchrun): NCCL on cuda:LOCAL_RANK, as each process's GPU.
    const auto unsaid =
        dist::read_launch_info(env_of({{"RANK", "9"}, {"WORLD_SIZE", "16"}, {"LOCAL_RANK", "1"}}));
    const auto by_local_rank = dist::place_process(unsaid, true, 8);
    CHECK(by_local_rank.kind == dist::BackendKind::kNccl);
    CHECK(by_local_rank.device == c10::Device(c10::kCUDA, 1));
    // No GPU asked for: Gloo on the CPU, nothing to say.
    const auto cpu = dist::place_process(two_on_this_machine, false, 2);
    CHECK(cpu.kind == dist::BackendKind::kGloo);
    CHECK(cpu.device == c10::Device(c10::kCPU));
    CHECK(cpu.note.empty());
}
