// Mistake: Takes the second device whenever it is not the CPU
// With two GPUs the first one wins: compute_device(cuda:1, cuda:0) must be cuda:1.
#include "same_device_add.h"

#include <stdexcept>
#include <string>

namespace ex {

namespace {

void require_defined(const at::Tensor& a, const at::Tensor& b, const char* who) {
    if (!a.defined() || !b.defined()) {
        const auto state = [](const at::Tensor& t) {
            return t.defined() ? "defined" : "undefined";
        };
        throw std::invalid_argument(std::string(who) + ": expected two defined tensors, got a " +
                                    state(a) + " first and a " + state(b) + " second tensor");
    }
}

}  // namespace

at::Tensor add_on_device_of_first(const at::Tensor& a, const at::Tensor& b) {
    require_defined(a, b, "add_on_device_of_first");
    // to() returns b itself when it is already there, so the common case costs nothing.
    return a.add(b.to(a.device()));
}

c10::Device compute_device(c10::Device a, c10::Device b) {
    // Moving the CPU side is the cheap direction: the accelerator's tensor stays where it is.
    if (!b.is_cpu()) {
        return b;
    }
    return a;
}

at::Tensor add_on_compute_device(const at::Tensor& a, const at::Tensor& b) {
    require_defined(a, b, "add_on_compute_device");
    const c10::Device target = compute_device(a.device(), b.device());
    // Each to() is free for the tensor already on `target`: only the other one is copied.
    return a.to(target).add(b.to(target));
}

}  // namespace ex
