/// @file timer.h
/// @brief Timing that is honest about asynchronous devices.
///
/// A CUDA kernel launch returns before the kernel runs, so a host clock read right after it
/// measures the launch, not the work. DeviceTimer uses CUDA events on CUDA devices (recorded on
/// the current stream, resolved on the GPU's own clock) and a synchronised steady clock elsewhere.
#pragma once

#include <c10/core/Device.h>

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace torchlings {

namespace detail {
struct CudaEvents;  // a pair of CUDA events; defined only where CUDA is compiled in
/// Destroys CudaEvents where their type is complete.
struct CudaEventsDeleter {
    void operator()(CudaEvents* events) const noexcept;
};
}  // namespace detail

/// Measures the elapsed time of work queued on one device between start() and stop().
class DeviceTimer {
  public:
    /// @throws DeviceError if `device` is a CUDA device that does not exist.
    explicit DeviceTimer(const c10::Device& device);
    ~DeviceTimer();
    DeviceTimer(const DeviceTimer&) = delete;
    DeviceTimer& operator=(const DeviceTimer&) = delete;
    /// Moves the timer (and its events).
    DeviceTimer(DeviceTimer&&) noexcept;
    /// Moves the timer (and its events).
    DeviceTimer& operator=(DeviceTimer&&) noexcept;

    /// Marks the start (records an event on CUDA; synchronises and reads the clock elsewhere).
    void start();
    /// Marks the end, waits for the device and returns the milliseconds since start().
    /// @throws std::logic_error if start() was not called first.
    double stop_ms();
    /// The device this timer measures.
    const c10::Device& device() const { return device_; }

  private:
    c10::Device device_;
    std::unique_ptr<detail::CudaEvents, detail::CudaEventsDeleter> events_;
    std::chrono::steady_clock::time_point host_start_{};
    bool started_ = false;
};

/// Summary of repeated timings, in milliseconds.
struct TimingSummary {
    double median_ms = 0;  ///< The figure to report: robust to a noisy machine.
    double min_ms = 0;     ///< Best case.
    double max_ms = 0;     ///< Worst case.
    int repetitions = 0;   ///< How many timed runs (warm-up runs excluded).
};

/// Runs `work` `warmup` times untimed (lazy initialisation, caches, allocator), then
/// `repetitions` times timed with a DeviceTimer, and summarises.
/// @throws std::invalid_argument if repetitions < 1 or warmup < 0.
TimingSummary time_on_device(const c10::Device& device, const std::function<void()>& work,
                             int repetitions = 10, int warmup = 2);

/// The median of `values` (the mean of the two middle ones for an even count).
/// @throws std::invalid_argument if `values` is empty.
double median(std::vector<double> values);

}  // namespace torchlings
