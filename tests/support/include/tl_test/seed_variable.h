/// @file seed_variable.h
/// @brief For tests of the hidden inputs themselves: sets TORCHLINGS_TEST_SEED (or unsets it,
/// for nullptr) for one scope, then restores it.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace tl_test {

class SeedVariable {
  public:
    explicit SeedVariable(const char* value) {
        if (const char* old = std::getenv("TORCHLINGS_TEST_SEED")) {
            saved_ = old;
        }
        set(value);
    }
    ~SeedVariable() { set(saved_ ? saved_->c_str() : nullptr); }
    SeedVariable(const SeedVariable&) = delete;
    SeedVariable& operator=(const SeedVariable&) = delete;

  private:
    static void set(const char* value) {
        if (value == nullptr) {
            unsetenv("TORCHLINGS_TEST_SEED");
        } else {
            setenv("TORCHLINGS_TEST_SEED", value, 1);
        }
    }
    std::optional<std::string> saved_;
};

}  // namespace tl_test
