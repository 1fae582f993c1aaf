/// @file
/// @brief Unit tests of the language choice (TORCHLINGS_LANG, then the locale) and of the
/// message table.
#include "tl_test/catch.h"

#include <map>

#include "core/language.h"
#include "core/messages.h"

namespace tl = torchlings::runner;
using Catch::Matchers::ContainsSubstring;

namespace {

/// choose_language() on an environment of exactly these variables.
tl::LanguageChoice choose(const std::map<std::string, std::string>& environment) {
    return tl::choose_language([&](std::string_view name) -> std::optional<std::string> {
        const auto found = environment.find(std::string(name));
        if (found == environment.end()) {
            return std::nullopt;
        }
        return found->second;
    });
}

constexpr tl::Language kEn = tl::Language::kEnglish;
constexpr tl::Language kKo = tl::Language::kKorean;

}  // namespace

TEST_CASE("TORCHLINGS_LANG decides over the locale") {
    CHECK(choose({{"TORCHLINGS_LANG", "ko"}}).language == kKo);
    CHECK(choose({{"TORCHLINGS_LANG", "ko"}, {"LC_ALL", "C.UTF-8"}}).language == kKo);
    CHECK(choose({{"TORCHLINGS_LANG", "en"}, {"LANG", "ko_KR.UTF-8"}}).language == kEn);
    CHECK(choose({{"TORCHLINGS_LANG", "en"}, {"LC_ALL", "ko_KR.UTF-8"}}).language == kEn);
    CHECK(choose({{"TORCHLINGS_LANG", "ko"}}).warning.empty());
}

TEST_CASE("without TORCHLINGS_LANG, LC_ALL, then LC_MESSAGES, then LANG decide") {
    CHECK(choose({}).language == kEn);
    CHECK(choose({{"LANG", "ko_KR.UTF-8"}}).language == kKo);
    CHECK(choose({{"LANG", "en_US.UTF-8"}}).language == kEn);
    CHECK(choose({{"LC_MESSAGES", "ko_KR.UTF-8"}, {"LANG", "en_US.UTF-8"}}).language == kKo);
    CHECK(choose({{"LC_MESSAGES", "C"}, {"LANG", "ko_KR.UTF-8"}}).language == kEn);
    CHECK(choose({{"LC_ALL", "ko_KR.UTF-8"}, {"LC_MESSAGES", "C"}}).language == kKo);
    CHECK(choose({{"LC_ALL", "C.UTF-8"}, {"LANG", "ko_KR.UTF-8"}}).language == kEn);
    CHECK(choose({{"LC_ALL", "ko"}}).language == kKo);
    // Set but empty counts as unset, for TORCHLINGS_LANG and the locale alike.
    CHECK(choose({{"LC_ALL", ""}, {"LC_MESSAGES", ""}, {"LANG", "ko_KR.UTF-8"}}).language == kKo);
    CHECK(choose({{"TORCHLINGS_LANG", ""}, {"LANG", "ko_KR.UTF-8"}}).language == kKo);
    CHECK(choose({{"TORCHLINGS_LANG", ""}, {"LANG", "ko_KR.UTF-8"}}).warning.empty());
}

TEST_CASE("any other TORCHLINGS_LANG is a warning naming the accepted values") {
    for (const char* wrong : {"fr", "kr", "KO", "ko_KR.UTF-8", "korean", " ko"}) {
        const tl::LanguageChoice choice = choose({{"TORCHLINGS_LANG", wrong}});
        INFO(wrong);
        CHECK(choice.language == kEn);
        CHECK_THAT(choice.warning, ContainsSubstring(std::string("TORCHLINGS_LANG=") + wrong) &&
                                       ContainsSubstring("accepted values are en, ko") &&
                                       ContainsSubstring("Using English"));
    }
    // The locale still decides then.
    const tl::LanguageChoice choice = choose({{"TORCHLINGS_LANG", "fr"}, {"LANG", "ko_KR.UTF-8"}});
    CHECK(choice.language == kKo);
    CHECK_THAT(choice.warning, ContainsSubstring("Using Korean"));
    CHECK(tl::language_code(kKo) == "ko");
    CHECK(tl::language_code(kEn) == "en");
}

TEST_CASE("messages fill their placeholders in each language's order") {
    CHECK(tl::message(kEn, tl::Msg::kTestsPassed, {"choose_device", 2, 5}) ==
          "choose_device: 2/5 tests passed");
    CHECK(tl::message(kKo, tl::Msg::kTestsPassed, {"choose_device", 2, 5}) ==
          "choose_device: 테스트 5개 중 2개 통과");
    CHECK(tl::message(kEn, tl::Msg::kLastHint) == "That was the last hint.");
    CHECK(tl::message(kKo, tl::Msg::kLastHint) == "마지막 힌트였습니다.");
    // A placeholder without its argument stays as written, and braces in arguments are kept.
    CHECK(tl::message(kEn, tl::Msg::kBuildError) == "{0}: build error");
    CHECK(tl::message(kEn, tl::Msg::kBuildError, {"{1}"}) == "{1}: build error");
}

TEST_CASE("status words: English as the progress file's labels, Korean for list and watch") {
    for (const tl::ExerciseStatus status :
         {tl::ExerciseStatus::kNotTried, tl::ExerciseStatus::kDone, tl::ExerciseStatus::kFailing,
          tl::ExerciseStatus::kBuildError, tl::ExerciseStatus::kSkipped,
          tl::ExerciseStatus::kChanged}) {
        CHECK(tl::status_text(kEn, status) == tl::status_label(status));
        CHECK(tl::status_text(kKo, status) != tl::status_label(status));
    }
    CHECK(tl::status_text(kKo, tl::ExerciseStatus::kDone) == "완료");
}

TEST_CASE("Hangul takes two columns when text is padded") {
    CHECK(tl::display_width("done") == 4);
    CHECK(tl::display_width("완료") == 4);
    CHECK(tl::display_width("빌드 오류") == 9);
    CHECK(tl::display_width("\u2014") == 1);
    CHECK(tl::pad_to_width("완료", 6) == "완료  ");
    CHECK(tl::pad_to_width("done", 2) == "done");
    CHECK(tl::display_width("\xff") == 1);  // a stray byte counts once
}
