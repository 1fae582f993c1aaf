/// @file device_test.cpp
/// @brief Tests of torchlings/device.h: parsing, choice, reports, synchronisation, memory.
#include <torchlings/device.h>
#include <torchlings/kernels.h>

#include <tl_test/tensors.h>

#include <string>

using torchlings::DeviceError;

namespace {
std::string message_of(const std::string& spec) {
    try {
        torchlings::choose_device(spec);
    } catch (const DeviceError& e) {
        return e.what();
    }
    return "(no error)";
}
}  // namespace

TEST_CASE("well-formed device strings parse", "[device]") {
    CHECK(torchlings::parse_device_spec("auto").kind == "auto");
    CHECK(torchlings::parse_device_spec("cpu").kind == "cpu");
    CHECK(torchlings::parse_device_spec("mps").kind == "mps");
    const auto cuda = torchlings::parse_device_spec("cuda");
    CHECK(cuda.kind == "cuda");
    CHECK_FALSE(cuda.index.has_value());
    const auto cuda3 = torchlings::parse_device_spec("cuda:3");
    CHECK(cuda3.kind == "cuda");
    CHECK(cuda3.index == 3);
    CHECK(torchlings::parse_device_spec("cuda:10").index == 10);
}

TEST_CASE("malformed device strings are rejected with the expected forms", "[device]") {
    for (const char* bad : {"", "gpu", "GPU", "cuda:", "cuda:x", "cuda:-1", "cuda:01", "cuda:1:2",
                            "cuda 0", " cpu", "CPU", "cuda:1234"}) {
        INFO("spec '" << bad << "'");
        CHECK_THROWS_AS(torchlings::parse_device_spec(bad), DeviceError);
        const std::string msg = message_of(bad);
        CHECK(msg.find("Invalid device '" + std::string(bad) + "'") != std::string::npos);
        CHECK(msg.find("expected one of auto, cpu, cuda, cuda:N") != std::string::npos);
        CHECK(msg.find("Available here: ") != std::string::npos);
    }
}

TEST_CASE("available devices end with the CPU and list every GPU first", "[device]") {
    const auto devices = torchlings::available_devices();
    REQUIRE_FALSE(devices.empty());
    CHECK(devices.back() == c10::Device("cpu"));
    const int gpus = static_cast<int>(torch::cuda::device_count());
    for (int i = 0; i < gpus; ++i) {
        CHECK(devices[static_cast<std::size_t>(i)] == c10::Device("cuda:" + std::to_string(i)));
    }
    CHECK(torchlings::describe_available_devices().find("cpu") != std::string::npos);
}

TEST_CASE("auto picks CUDA then MPS then the CPU", "[device]") {
    const auto chosen = torchlings::choose_device("auto");
    if (torch::cuda::is_available()) {
        CHECK(chosen == c10::Device("cuda:0"));
    } else if (torch::mps::is_available()) {
        CHECK(chosen == c10::Device("mps"));
    } else {
        CHECK(chosen == c10::Device("cpu"));
    }
    CHECK(torchlings::choose_device() == chosen);
    CHECK(torchlings::choose_device("cpu") == c10::Device("cpu"));
}

TEST_CASE("an absent CUDA device is an error naming what exists and never a fallback", "[device]") {
    const int gpus = static_cast<int>(torch::cuda::device_count());
    const std::string absent = "cuda:" + std::to_string(gpus);  // one past the last
    CHECK_THROWS_AS(torchlings::choose_device(absent), DeviceError);
    const std::string msg = message_of(absent);
    CHECK(msg.find("Device '" + absent + "' is not available") != std::string::npos);
    CHECK(msg.find("Available here: ") != std::string::npos);
    if (gpus == 0) {
        CHECK_THROWS_AS(torchlings::choose_device("cuda"), DeviceError);
        CHECK(message_of("cuda").find("no CUDA GPU is visible") != std::string::npos);
    }
}

TEST_CASE("MPS is an error where it does not exist", "[device]") {
    if (torch::mps::is_available()) {
        CHECK(torchlings::choose_device("mps").is_mps());
    } else {
        CHECK(message_of("mps").find("MPS (Apple GPUs) is not available") != std::string::npos);
    }
}

TEST_CASE("synchronising the CPU is a no-op that returns", "[device]") {
    CHECK_NOTHROW(torchlings::synchronize(c10::Device("cpu")));
}

TEST_CASE("version and byte formatting", "[device]") {
    CHECK(torchlings::format_cuda_version(13020) == "13.2");
    CHECK(torchlings::format_cuda_version(12040) == "12.4");
    CHECK(torchlings::format_cuda_version(0) == "none");
    CHECK(torchlings::format_bytes(17) == "17 B");
    CHECK(torchlings::format_bytes(1536) == "1.5 KiB");
    CHECK(torchlings::format_bytes(512ULL << 20) == "512.0 MiB");
    CHECK(torchlings::format_bytes(80ULL << 30) == "80.0 GiB");
}

TEST_CASE("the machine report agrees with LibTorch and explains itself", "[device]") {
    const auto report = torchlings::machine_report();
    CHECK(report.torch_version.rfind(std::to_string(TORCH_VERSION_MAJOR) + ".", 0) == 0);
    CHECK(report.cuda_available == torch::cuda::is_available());
    CHECK(report.cuda_device_count == static_cast<int>(torch::cuda::device_count()));
    CHECK(report.gpus.size() == static_cast<std::size_t>(report.cuda_device_count));
    CHECK(report.cpu_threads >= 1);
    CHECK(report.project_cuda_kernels == torchlings::cuda_kernels_compiled());
    if (!report.cuda_available) {
        CHECK_FALSE(report.notes.empty());  // "false" always comes with a reason
    }
}

TEST_CASE("memory statistics are 'not applicable' on the CPU", "[device][memory]") {
    const auto stats = torchlings::memory_stats(c10::Device("cpu"));
    CHECK_FALSE(stats.applicable);
    CHECK(stats.reason.find("CUDA caching allocator") != std::string::npos);
    CHECK_NOTHROW(torchlings::reset_peak_memory(c10::Device("cpu")));
    CHECK_NOTHROW(torchlings::empty_cache());  // every GPU's cache; nothing to do without one
}

TEST_CASE("memory statistics of an absent GPU are a DeviceError", "[device][memory]") {
    const auto absent = c10::Device(c10::DeviceType::CUDA,
                                    static_cast<c10::DeviceIndex>(torch::cuda::device_count()));
    CHECK_THROWS_AS(torchlings::memory_stats(absent), DeviceError);
    CHECK_THROWS_AS(torchlings::reset_peak_memory(absent), DeviceError);
}

TEST_CASE("GPU memory statistics follow allocations", "[gpu][memory]") {
    TL_REQUIRE_CUDA();
    const c10::Device gpu("cuda:0");
    torchlings::reset_peak_memory(gpu);
    const auto before = torchlings::memory_stats(gpu);
    REQUIRE(before.applicable);
    {
        const auto t =
            torch::empty({64, 1024, 1024}, torch::TensorOptions().device(gpu));  // 256 MiB
        const auto during = torchlings::memory_stats(gpu);
        CHECK(during.allocated >= before.allocated + t.nbytes());
        CHECK(during.reserved >= during.allocated);
        CHECK(during.total > 0);
    }
    const auto after = torchlings::memory_stats(gpu);
    CHECK(after.allocated == before.allocated);   // freed back to the cache...
    CHECK(after.peak_allocated >= 256ULL << 20);  // ...but the peak remembers it
    torchlings::empty_cache();  // all GPUs: the allocator has no per-device emptyCache()
    CHECK(torchlings::memory_stats(gpu).reserved <= after.reserved);
}

TEST_CASE("the report describes every GPU", "[gpu]") {
    TL_REQUIRE_CUDA();
    const auto report = torchlings::machine_report();
    REQUIRE_FALSE(report.gpus.empty());
    for (const auto& gpu : report.gpus) {
        CHECK_FALSE(gpu.name.empty());
        CHECK(gpu.major >= 3);
        CHECK(gpu.multiprocessors > 0);
        CHECK(gpu.total_memory >= gpu.free_memory);
        CHECK(gpu.warp_size == 32);
    }
    CHECK(report.cuda_driver_version > 0);
    CHECK_NOTHROW(torchlings::synchronize(c10::Device("cuda:0")));
}
