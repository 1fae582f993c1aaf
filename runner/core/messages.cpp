/// @file
/// @brief The runner's messages in English and Korean. Korean uses the course's terms (연습 문제,
/// 강의, 힌트, 테스트, 통과/실패, 빌드): 합니다체 for sentences, short noun phrases for verdicts.
/// Commands, ids and file names stay as typed.
#include "core/messages.h"

#include <array>
#include <cstdint>

namespace torchlings::runner {

namespace {

struct Entry {
    Msg id;
    std::string_view english;
    std::string_view korean;
};

// clang-format off
constexpr std::array<Entry, static_cast<std::size_t>(Msg::kCount)> kMessages{{
    // check: one exercise
    {Msg::kCheckHeader, "{0} (lesson {1}): {2}", "{0} (강의 {1}): {2}"},
    {Msg::kTestsPassed, "{0}: {1}/{2} tests passed", "{0}: 테스트 {2}개 중 {1}개 통과"},
    {Msg::kTestsSkipped, ", {0} skipped", ", {0}개 건너뜀"},
    {Msg::kDone, "{0}. Done!", "{0}. 완료!"},
    {Msg::kNotPassedContradicted,
     "{0}: not passed (the exit status, {1}, contradicts the report)",
     "{0}: 통과하지 못했습니다 (종료 상태 {1}: 테스트 보고와 어긋납니다)"},
    {Msg::kNotPassedRefused, "{0}: not passed, refused: {1}.",
     "{0}: 통과하지 못했습니다. 거부됨: {1}."},
    {Msg::kAllSkipped,
     "{0}: every test was skipped ({1} of {2}), so nothing was checked on this machine.",
     "{0}: 모든 테스트를 건너뛰었습니다 ({2}개 중 {1}개). 이 컴퓨터에서는 아무것도 확인하지 "
     "못했습니다."},
    {Msg::kBuildError, "{0}: build error", "{0}: 빌드 오류"},
    {Msg::kStuck, "Stuck? {0} hint {1}", "막혔나요? {0} hint {1}"},
    {Msg::kNext, "Next: {0} check {1}", "다음: {0} check {1}"},
    {Msg::kLessonBegins, "   (lesson {0} begins)", "   (강의 {0} 시작)"},
    {Msg::kLastExercise, "That was the last exercise of the course.",
     "과정의 마지막 연습 문제였습니다."},
    {Msg::kFirstFailure, "{0}, in \"{1}\":", "{0} (\"{1}\"):"},
    {Msg::kFirstFailureWords, "First failure", "첫 번째 실패"},
    {Msg::kFailedWithoutAssertion, "  The test case failed without reporting an assertion.",
     "  테스트 케이스가 단언(assertion)을 하나도 보고하지 않고 실패했습니다."},
    {Msg::kKnownMistake, "This looks like a known mistake: {0}",
     "알려진 실수로 보입니다: {0}"},
    {Msg::kKnownMistakes, "This looks like one of these known mistakes:",
     "다음 알려진 실수 중 하나로 보입니다:"},
    {Msg::kProgramOutput, "Output of the test program (last {0} lines at most):",
     "테스트 프로그램의 출력 (마지막 {0}줄까지):"},
    {Msg::kNoTestCasesRan, "  The test program ran no test cases.",
     "  테스트 프로그램이 테스트 케이스를 하나도 실행하지 않았습니다."},
    {Msg::kCaseNotTrusted, " (reported passed; not trusted)", " (통과로 보고되었지만 믿지 않음)"},
    {Msg::kCaseSkipped, " (skipped: {0})", " (건너뜀: {0})"},
    {Msg::kCaseStoppedHere, " (stopped here)", " (여기서 멈춤)"},
    {Msg::kCaseCrashedHere, " (crashed here)", " (여기서 비정상 종료)"},
    {Msg::kCaseExitedHere, " (exited here)", " (여기서 종료)"},
    {Msg::kCaseNotRun, "· {0} (not run)", "· {0} (실행되지 않음)"},
    // hint
    {Msg::kNoHints, "{0} has no hints. The TODO comments in {1} say what to change.",
     "{0}에는 힌트가 없습니다. 무엇을 바꿀지는 {1}의 TODO 주석에 적혀 있습니다."},
    {Msg::kHintsFor, "Hints for {0}", "{0} 힌트"},
    {Msg::kHintAgain, "Run {0} hint {1} again for the next hint.",
     "다음 힌트를 보려면 다시 실행하세요: {0} hint {1}"},
    {Msg::kLastHint, "That was the last hint.", "마지막 힌트였습니다."},
    {Msg::kAllHintsShown, "All {0} hints are shown. If you are still stuck: {1} solution {2} --force",
     "힌트 {0}개를 모두 보았습니다. 그래도 막히면: {1} solution {2} --force"},
    {Msg::kPressHAgain, "Press h again for the next hint.",
     "다음 힌트를 보려면 h를 다시 누르세요."},
    // list
    {Msg::kHintCountOne, "{0} hint", "힌트 {0}개"},
    {Msg::kHintCountMany, "{0} hints", "힌트 {0}개"},
    {Msg::kHintsShown, " ({0} shown)", " ({0}개 공개됨)"},
    {Msg::kListLegend,
     "done: the last check passed and the file is unchanged since; changed: it passed, then the "
     "file was edited; skipped: every test needs what this machine lacks (a GPU)",
     "완료: 마지막 확인에서 통과했고 그 뒤로 파일이 그대로입니다. 변경됨: 통과한 뒤 파일이 "
     "수정되었습니다. 건너뜀: 모든 테스트에 이 컴퓨터에 없는 것(GPU)이 필요합니다."},
    {Msg::kListProgress, "Progress: {0}/{1} exercises done.", "진행: 연습 문제 {1}개 중 {0}개 완료."},
    {Msg::kListNext, " Next: {0} check {1}", " 다음: {0} check {1}"},
    // status labels (English: as status_label() spells them)
    {Msg::kStatusNotTried, "not tried", "시도 전"},
    {Msg::kStatusDone, "done", "완료"},
    {Msg::kStatusFailing, "failing", "실패"},
    {Msg::kStatusBuildError, "build error", "빌드 오류"},
    {Msg::kStatusSkipped, "skipped", "건너뜀"},
    {Msg::kStatusChanged, "changed", "변경됨"},
    // watch
    {Msg::kWatchKeys, "n next   h hint   l list   c check now   q quit",
     "n 다음   h 힌트   l 목록   c 지금 확인   q 종료"},
    {Msg::kWatchStatusBar, "{0} | lesson {1} {2} | {3}/{4} done | {5}",
     "{0} | 강의 {1} {2} | {3}/{4} 완료 | {5}"},
    {Msg::kWatchWatching, "Watching {0}: {1}", "{0} 감시 중: {1}"},
    {Msg::kWatchPasses, "Passes. Press n for the next exercise.",
     "통과했습니다. 다음 연습 문제로 가려면 n을 누르세요."},
    {Msg::kWatchSaveToCheck, "Save the file to check it again.",
     "파일을 저장하면 다시 확인합니다."},
    {Msg::kWatchKeysLine, "Keys: {0}", "키: {0}"},
    {Msg::kWatchUnknownKey, "That key does nothing here. Keys: {0}",
     "이 키는 여기서 아무 일도 하지 않습니다. 키: {0}"},
    {Msg::kWatchStopped, "Stopped watching. Go on later with {0} watch",
     "감시를 멈췄습니다. 나중에 이어서 하려면: {0} watch"},
    {Msg::kWatchAllDone, "Every exercise of the course is done. Congratulations!",
     "과정의 모든 연습 문제를 마쳤습니다. 축하합니다!"},
    {Msg::kWatchNotMovingOn, "Not moving on. ", "넘어가지 않습니다. "},
    {Msg::kWatchNotTried, "{0} has not been checked yet. Press c to check it.",
     "{0}: 아직 확인하지 않았습니다. c를 눌러 확인하세요."},
    {Msg::kWatchFailing,
     "{0} does not pass yet: n moves on once every test passes. Press h for a hint.",
     "{0}: 아직 통과하지 못했습니다. 모든 테스트를 통과해야 n으로 넘어갑니다. 힌트를 보려면 h를 "
     "누르세요."},
    {Msg::kWatchBuildError, "{0} does not compile yet: fix the error above and save.",
     "{0}: 아직 컴파일되지 않습니다. 위의 오류를 고치고 저장하세요."},
    {Msg::kWatchChanged,
     "{0} passed, but its file has changed since. Save it (or press c) to check it again.",
     "{0}: 통과했지만 그 뒤로 파일이 바뀌었습니다. 저장하거나 c를 눌러 다시 확인하세요."},
    {Msg::kWatchSkipped,
     "Every test of {0} was skipped on this machine (they need what it lacks, such as a GPU), so "
     "it does not count as done.",
     "{0}: 이 컴퓨터에서는 모든 테스트를 건너뛰었으므로 완료로 치지 않습니다 (GPU처럼 이 "
     "컴퓨터에 없는 것이 필요합니다)."},
    {Msg::kWatchGoOnAnyway, " To go on anyway: {0} watch {1}", " 그래도 넘어가려면: {0} watch {1}"},
    {Msg::kWatchNeedsTerminal,
     "watch needs a terminal: it reads single key presses, and here stdin or stdout is not a "
     "terminal.",
     "watch는 터미널이 필요합니다. 키를 하나씩 읽는데, 여기서는 stdin이나 stdout이 터미널이 "
     "아닙니다."},
    {Msg::kWatchOneAtATime, "The same, one command at a time:", "같은 일을 명령으로 하나씩 하려면:"},
    {Msg::kWatchPlainCheck, "build and test the exercise (after each save)",
     "연습 문제를 빌드하고 테스트합니다 (저장할 때마다)"},
    {Msg::kWatchPlainHint, "the next hint", "다음 힌트"},
    {Msg::kWatchPlainList, "every exercise and its status", "모든 연습 문제와 그 상태"},
    {Msg::kWatchPlainProgress, "how far you are in the course", "과정을 얼마나 진행했는지"},
    {Msg::kWatchCurrent, "Current exercise: {0} ({1})", "현재 연습 문제: {0} ({1})"},
    // building a target
    {Msg::kBuilding, "  building {0} ...", "  {0} 빌드 중 ..."},
    {Msg::kBuildOk, " ok ({0})", " 완료 ({0})"},
    {Msg::kBuildFailed, "failed", "실패"},
    {Msg::kBuildExercises, "{0} exercises", "연습 문제 {0}개"},
    // check: several exercises
    {Msg::kCannotBeChecked, "{0}: cannot be checked", "{0}: 확인할 수 없습니다"},
    {Msg::kCheckedMany, "Checked {0} exercises: {1} pass.",
     "연습 문제 {0}개를 확인했습니다: {1}개 통과."},
    {Msg::kCoursePasses, "Every exercise of the course passes, checked just now. Congratulations!",
     "과정의 모든 연습 문제가 방금 확인한 결과 통과합니다. 축하합니다!"},
}};
// clang-format on

constexpr bool in_order() {
    for (std::size_t i = 0; i < kMessages.size(); ++i) {
        if (static_cast<std::size_t>(kMessages[i].id) != i || kMessages[i].english.empty() ||
            kMessages[i].korean.empty()) {
            return false;
        }
    }
    return true;
}
static_assert(in_order(),
              "kMessages lists every Msg once, in the order of the enum, in both "
              "languages");

/// The code point of the UTF-8 sequence at `at`, and its length (1 for a stray byte).
std::pair<std::uint32_t, std::size_t> decode(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    std::size_t length = lead < 0x80           ? 1
                         : (lead >> 5) == 0x6  ? 2
                         : (lead >> 4) == 0xE  ? 3
                         : (lead >> 3) == 0x1E ? 4
                                               : 1;
    if (at + length > text.size()) {
        return {lead, 1};
    }
    std::uint32_t code = length == 1 ? lead : lead & (0x7F >> length);
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(at + i) & 0xC0) != 0x80) {
            return {lead, 1};
        }
        code = (code << 6) | (byte(at + i) & 0x3F);
    }
    return {code, length};
}

bool is_wide(std::uint32_t code) {
    return (code >= 0x1100 && code <= 0x115F) || (code >= 0x2E80 && code <= 0xA4CF) ||
           (code >= 0xAC00 && code <= 0xD7A3) || (code >= 0xF900 && code <= 0xFAFF) ||
           (code >= 0xFE30 && code <= 0xFE4F) || (code >= 0xFF00 && code <= 0xFF60) ||
           (code >= 0xFFE0 && code <= 0xFFE6) || (code >= 0x20000 && code <= 0x3FFFD);
}

}  // namespace

std::string message(Language language, Msg id, std::initializer_list<MessageArg> args) {
    const Entry& entry = kMessages.at(static_cast<std::size_t>(id));
    const std::string_view text = language == Language::kKorean ? entry.korean : entry.english;
    std::string result;
    for (std::size_t at = 0; at < text.size(); ++at) {
        if (text[at] == '{' && at + 2 < text.size() && text[at + 1] >= '0' && text[at + 1] <= '9' &&
            text[at + 2] == '}') {
            const auto index = static_cast<std::size_t>(text[at + 1] - '0');
            if (index < args.size()) {
                result += std::data(args)[index].text();
                at += 2;
                continue;
            }
        }
        result += text[at];
    }
    return result;
}

std::string status_text(Language language, ExerciseStatus status) {
    static constexpr std::array<Msg, 6> kLabels{Msg::kStatusNotTried, Msg::kStatusDone,
                                                Msg::kStatusFailing,  Msg::kStatusBuildError,
                                                Msg::kStatusSkipped,  Msg::kStatusChanged};
    return message(language, kLabels.at(static_cast<std::size_t>(status)));
}

std::size_t display_width(std::string_view text) {
    std::size_t width = 0;
    for (std::size_t at = 0; at < text.size();) {
        const auto [code, length] = decode(text, at);
        width += is_wide(code) ? 2 : 1;
        at += length;
    }
    return width;
}

std::string pad_to_width(std::string text, std::size_t width) {
    const std::size_t have = display_width(text);
    if (have < width) {
        text.append(width - have, ' ');
    }
    return text;
}

}  // namespace torchlings::runner
