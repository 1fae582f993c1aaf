/// @file no_cuda.cpp
/// @brief The CUDA seam for a LibTorch built without CUDA: reports say so, nothing else is
/// reachable (device.cpp never passes a CUDA device here when there is no GPU).
#include "detail.h"

#include <stdexcept>

namespace torchlings::detail {

struct CudaEvents {};

void CudaEventsDeleter::operator()(CudaEvents* events) const noexcept { delete events; }

void fill_cuda_report(MachineReport& report) {
    report.torch_built_with_cuda = false;
#ifdef TL_TORCH_CPU_USE
    report.notes.emplace_back(
        "This LibTorch is PyPI's CUDA build used without its CUDA part: on a machine without an "
        "NVIDIA driver the set-up left out its CUDA libraries (about 3 GB), so the course links "
        "only libtorch_cpu.so and libc10.so, and CUDA is unavailable whatever the hardware. With "
        "a GPU: ./torchlings setup --cuda.");
#else
    report.notes.emplace_back(
        "This LibTorch was built without CUDA (a CPU-only build), so CUDA is unavailable whatever "
        "the hardware. Install a CUDA-enabled LibTorch to use a GPU.");
#endif
}

namespace {
[[noreturn]] void unreachable(const char* what) {
    throw std::logic_error(std::string(what) + ": this LibTorch was built without CUDA");
}
}  // namespace

void cuda_make_current(int) { unreachable("use_device_in_this_thread"); }
MemoryStats cuda_memory_stats(int) { unreachable("memory_stats"); }
void cuda_reset_peak(int) { unreachable("reset_peak_memory"); }
void cuda_empty_cache() { unreachable("empty_cache"); }
std::unique_ptr<CudaEvents, CudaEventsDeleter> make_cuda_events(int) { unreachable("DeviceTimer"); }
void record_start(CudaEvents&) { unreachable("DeviceTimer::start"); }
double record_stop_ms(CudaEvents&) { unreachable("DeviceTimer::stop_ms"); }

}  // namespace torchlings::detail
