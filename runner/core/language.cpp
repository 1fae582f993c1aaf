/// @file
/// @brief Choosing the language the runner speaks.
#include "core/language.h"

#include <cstdlib>

namespace torchlings::runner {

namespace {

/// The value of a variable when it is set and not empty.
std::optional<std::string> non_empty(const EnvironmentLookup& lookup, std::string_view name) {
    std::optional<std::string> value = lookup(name);
    return value && !value->empty() ? value : std::nullopt;
}

/// The language of the locale: POSIX gives LC_ALL precedence over LC_MESSAGES over LANG.
Language locale_language(const EnvironmentLookup& lookup) {
    for (const std::string_view name : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        if (const std::optional<std::string> value = non_empty(lookup, name)) {
            return value->starts_with("ko") ? Language::kKorean : Language::kEnglish;
        }
    }
    return Language::kEnglish;
}

}  // namespace

LanguageChoice choose_language(const EnvironmentLookup& lookup) {
    const std::optional<std::string> asked = non_empty(lookup, "TORCHLINGS_LANG");
    if (!asked) {
        return {locale_language(lookup), {}};
    }
    if (*asked == "en") {
        return {Language::kEnglish, {}};
    }
    if (*asked == "ko") {
        return {Language::kKorean, {}};
    }
    const Language fallback = locale_language(lookup);
    return {fallback, "TORCHLINGS_LANG=" + *asked +
                          " is not a language the runner speaks; the accepted values are " +
                          std::string(kLanguageValues) + " (unset: the locale decides). Using " +
                          (fallback == Language::kKorean ? "Korean" : "English") +
                          ", from the locale."};
}

LanguageChoice language_from_environment() {
    return choose_language([](std::string_view name) -> std::optional<std::string> {
        const char* value = std::getenv(std::string(name).c_str());
        return value == nullptr ? std::nullopt : std::optional<std::string>(value);
    });
}

std::string_view language_code(Language language) {
    return language == Language::kKorean ? "ko" : "en";
}

}  // namespace torchlings::runner
