/// @file timer.cpp
/// @brief DeviceTimer and repeated timing.
#include "torchlings/timer.h"

#include "detail.h"
#include "torchlings/device.h"

#include <algorithm>
#include <stdexcept>

namespace torchlings {

DeviceTimer::DeviceTimer(const c10::Device& device) : device_(device) {
    if (device_.is_cuda()) {
        device_ = choose_device(device.str());  // throws DeviceError if absent
        events_ = detail::make_cuda_events(device_.index());
    }
}

DeviceTimer::~DeviceTimer() = default;
DeviceTimer::DeviceTimer(DeviceTimer&&) noexcept = default;
DeviceTimer& DeviceTimer::operator=(DeviceTimer&&) noexcept = default;

void DeviceTimer::start() {
    if (events_) {
        detail::record_start(*events_);
    } else {
        synchronize(device_);  // earlier queued work must not count
        host_start_ = std::chrono::steady_clock::now();
    }
    started_ = true;
}

double DeviceTimer::stop_ms() {
    if (!started_) {
        throw std::logic_error("DeviceTimer::stop_ms() called before start()");
    }
    started_ = false;
    if (events_) {
        return detail::record_stop_ms(*events_);
    }
    synchronize(device_);
    const auto elapsed = std::chrono::steady_clock::now() - host_start_;
    return std::chrono::duration<double, std::milli>(elapsed).count();
}

double median(std::vector<double> values) {
    if (values.empty()) {
        throw std::invalid_argument("median() of an empty list: expected at least one value");
    }
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    if (values.size() % 2 == 1) {
        return *middle;
    }
    const double upper = *middle;
    const double lower = *std::max_element(values.begin(), middle);
    return (lower + upper) / 2.0;
}

TimingSummary time_on_device(const c10::Device& device, const std::function<void()>& work,
                             int repetitions, int warmup) {
    if (repetitions < 1 || warmup < 0) {
        throw std::invalid_argument(
            "time_on_device: expected repetitions >= 1 and warmup >= 0, got " +
            std::to_string(repetitions) + " and " + std::to_string(warmup));
    }
    for (int i = 0; i < warmup; ++i) {
        work();
    }
    DeviceTimer timer(device);
    std::vector<double> times;
    times.reserve(static_cast<std::size_t>(repetitions));
    for (int i = 0; i < repetitions; ++i) {
        timer.start();
        work();
        times.push_back(timer.stop_ms());
    }
    TimingSummary summary;
    summary.repetitions = repetitions;
    summary.min_ms = *std::min_element(times.begin(), times.end());
    summary.max_ms = *std::max_element(times.begin(), times.end());
    summary.median_ms = median(std::move(times));
    return summary;
}

}  // namespace torchlings
