/// @file
/// @brief The language the runner speaks to the learner (English or Korean), chosen from
/// `TORCHLINGS_LANG`, else from the locale (`LC_ALL`, then `LC_MESSAGES`, then `LANG`).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace torchlings::runner {

/// A language the runner speaks. Machine-readable outputs (--json, --junit, --classroom50,
/// --gradescope) are English whatever the language.
enum class Language { kEnglish, kKorean };

/// The language chosen, and a warning to print when the environment asked for one the runner
/// does not speak (empty otherwise).
struct LanguageChoice {
    Language language = Language::kEnglish;
    std::string warning;
};

/// Reads one environment variable: nothing when it is unset.
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view)>;

/// The values `TORCHLINGS_LANG` accepts, for messages: "en, ko".
inline constexpr std::string_view kLanguageValues = "en, ko";

/// The language from the environment. `TORCHLINGS_LANG=ko` or `=en` decides; unset or empty, the
/// first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty decides (Korean when it
/// starts with "ko", as in ko_KR.UTF-8; English otherwise). Any other `TORCHLINGS_LANG` gives a
/// warning naming the accepted values, and the locale decides.
[[nodiscard]] LanguageChoice choose_language(const EnvironmentLookup& lookup);

/// choose_language() on this process's environment.
[[nodiscard]] LanguageChoice language_from_environment();

/// "en" or "ko".
[[nodiscard]] std::string_view language_code(Language language);

}  // namespace torchlings::runner
