/// @file
/// @brief The runner's messages in English and Korean. Korean uses the course's terms (연습 문제,
/// 강의, 힌트, 테스트, 통과/실패, 빌드): 합니다체 for sentences, short noun phrases for verdicts.
/// Commands, ids and file names stay as typed.
#include "core/messages.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/text.h"

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
     "{0}: 통과하지 못했습니다 (종료 코드 {1}: 테스트 보고와 어긋납니다)"},
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
    // check: what a failed check or a stopped run means
    {Msg::kTodoLeft, "The exercise still has a TODO; the stub says:",
     "연습 문제에 아직 TODO가 남아 있습니다. 스텁에 적힌 내용:"},
    {Msg::kTodoReplace, "Replace the TODO in {0} with your code.",
     "{0}의 TODO를 여러분의 코드로 바꾸세요."},
    {Msg::kTheExercise, "the exercise", "연습 문제"},
    {Msg::kUncaughtException, "An exception that nothing caught was thrown:",
     "어디에서도 잡지 않은 예외가 던져졌습니다:"},
    {Msg::kWithValues, "with values:", "실제 값:"},
    {Msg::kAtLocation, "at {0}", "위치: {0}"},
    {Msg::kSiteIn, "in {0} at {1}", "{1}의 {0} 안"},
    {Msg::kSiteAfter, "after the check at {0}", "{0}의 검사가 끝난 뒤"},
    {Msg::kSiteBefore, "before the first check of the test case at {0}",
     "{0}에서 시작하는 테스트 케이스의 첫 검사 전"},
    {Msg::kThrownAt, "It was thrown {0}.", "예외가 던져진 곳: {0}."},
    {Msg::kHappenedAt, "It happened {0}.", "일어난 곳: {0}."},
    {Msg::kStopLine, "{0}{1}.", "{1}{0}."},
    {Msg::kWhileRunning, " while running \"{0}\"", "\"{0}\" 실행 중에 "},
    {Msg::kBeforeAnyCase, " before any test case started", "테스트 케이스가 시작되기 전에 "},
    {Msg::kStopCrashed, "The test program crashed with {0}",
     "테스트 프로그램이 {0} 신호를 받고 비정상 종료했습니다"},
    {Msg::kStopTimedOut, "Stopped after {0} s", "{0}초가 지나 멈췄습니다"},
    {Msg::kStopTimeLimit,
     "The time limit of this exercise is {0} s. Look for a loop that never ends or a wait that "
     "never returns.",
     "이 연습 문제의 제한 시간은 {0}초입니다. 끝나지 않는 반복문이나 돌아오지 않는 대기가 있는지 "
     "찾아보세요."},
    {Msg::kStopExited, "The test program exited with status {0}",
     "테스트 프로그램이 종료되었습니다 (종료 코드 {0})"},
    {Msg::kStopExitCalled, "Code under test must return or throw, never call exit().",
     "테스트 대상 코드는 값을 반환하거나 예외를 던져야 합니다. exit()를 호출하면 안 됩니다."},
    {Msg::kStopExitBeforeMain,
     "It ends even when only asked to list its tests, so code that runs before main() ended it: "
     "look in your file for a global variable whose initializer, or a static object whose "
     "constructor, calls exit(), abort() or a function that does. Move that code into the "
     "functions the tests call.",
     "테스트 목록만 달라고 해도 끝나므로, main()보다 먼저 실행되는 코드가 프로그램을 끝낸 "
     "것입니다. 여러분의 파일에서 exit()나 abort()를, 또는 그것을 호출하는 함수를 부르는 전역 "
     "변수의 초기화식이나 정적 객체의 생성자를 찾으세요. 그 코드는 테스트가 호출하는 함수 안으로 "
     "옮기세요."},
    {Msg::kStopContradicted,
     "The test program exited with status {0} although its report says no test failed",
     "테스트 보고에는 실패한 테스트가 없는데도 테스트 프로그램이 실패로 끝났습니다 (종료 코드 "
     "{0})"},
    {Msg::kStopContradictedWhy,
     "A pass counts only when the report and the exit status agree. Code that ran after the "
     "tests (an atexit() handler, a global object's destructor, exit() with another status) "
     "changed the outcome: remove it from your file.",
     "보고와 종료 코드가 일치할 때만 통과로 인정합니다. 테스트가 끝난 뒤에 실행된 코드(atexit() "
     "핸들러, 전역 객체의 소멸자, 다른 코드로 호출한 exit())가 결과를 바꿨습니다. 그 코드를 "
     "파일에서 지우세요."},
    {Msg::kStopRefused, "The test report was refused", "테스트 보고가 거부되었습니다"},
    {Msg::kStopRefusedWhy, "{0}. A refused run is not passed and scores nothing.",
     "{0}. 거부된 실행은 통과가 아니며 점수도 없습니다."},
    {Msg::kSignalSegv,
     "segmentation fault: memory was read or written through a bad pointer (null, dangling, or "
     "an index out of range)",
     "세그멘테이션 오류: 잘못된 포인터(널 포인터, 해제된 메모리를 가리키는 포인터, 범위를 벗어난 "
     "인덱스)로 메모리를 읽거나 썼습니다"},
    {Msg::kSignalAbrt,
     "abort: the program stopped itself, e.g. a failed assert(), an exception that nothing "
     "caught, or a corrupted heap",
     "abort: 프로그램이 스스로 멈췄습니다. 실패한 assert(), 어디에서도 잡지 않은 예외, 손상된 힙 "
     "등이 원인입니다"},
    {Msg::kSignalFpe, "arithmetic error, e.g. an integer division by zero",
     "산술 오류: 정수를 0으로 나눈 경우 등입니다"},
    {Msg::kSignalIll, "illegal instruction, often a trap for undefined behaviour",
     "잘못된 명령어: 정의되지 않은 동작을 잡는 트랩인 경우가 많습니다"},
    {Msg::kSignalBus, "bus error: a misaligned or unmapped memory access",
     "버스 오류: 정렬되지 않았거나 매핑되지 않은 메모리에 접근했습니다"},
    {Msg::kSignalKill, "killed from outside, e.g. by the out-of-memory killer",
     "외부에서 강제로 종료되었습니다. 메모리 부족(OOM) 킬러 등이 원인입니다"},
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
    // reset
    {Msg::kResetReplacesOne, "reset will replace this file with the original stub:",
     "reset은 이 파일을 원래 스텁으로 바꿉니다:"},
    {Msg::kResetReplacesMany, "reset will replace these files with the original stub:",
     "reset은 다음 파일들을 원래 스텁으로 바꿉니다:"},
    {Msg::kResetConfirm, "Your version is first copied to .torchlings/backups/. Go on? [y/N] ",
     "바꾸기 전에 여러분의 파일을 .torchlings/backups/에 복사해 둡니다. 계속할까요? [y/N] "},
    {Msg::kResetAlreadyStub, "{0}: {1} is already the original stub.",
     "{0}: {1} 파일은 이미 원래 스텁입니다."},
    {Msg::kNothingChanged, "Nothing was changed.", "아무것도 바꾸지 않았습니다."},
    {Msg::kResetSaved, "{0}: your file is saved as {1}; {2} is the original stub again.",
     "{0}: 여러분의 파일을 {1}(으)로 저장했고, {2} 파일은 다시 원래 스텁이 되었습니다."},
    {Msg::kResetMissing, "{0}: {1} was missing; it is the original stub again.",
     "{0}: {1} 파일이 없어서 원래 스텁을 다시 만들었습니다."},
    {Msg::kResetNeedsYes,
     "reset replaces your files (after a backup); without a terminal to ask on, confirm with "
     "--yes: {0}",
     "reset은 여러분의 파일을 (백업한 뒤) 바꿉니다. 물어볼 터미널이 없으니 --yes로 확인해 "
     "주세요: {0}"},
    // --help
    {Msg::kHelpAbout, "torchlings: numbered lessons and exercises on GPU programming with LibTorch.",
     "torchlings: LibTorch로 배우는 GPU 프로그래밍, 번호 순서대로 진행하는 강의와 연습 문제."},
    {Msg::kHelpFlag, "Print this help message and exit", "이 도움말을 보여 주고 끝냅니다"},
    {Msg::kHelpRoot,
     "Course folder (default: $TORCHLINGS_ROOT, else the nearest folder above with lessons/ and "
     "exercises/)",
     "과정 폴더 (기본값: $TORCHLINGS_ROOT, 없으면 lessons/와 exercises/가 있는 가장 가까운 상위 "
     "폴더)"},
    {Msg::kHelpBuildDir, "Build folder (default: $TORCHLINGS_BUILD_DIR, else <root>/build/dev)",
     "빌드 폴더 (기본값: $TORCHLINGS_BUILD_DIR, 없으면 <root>/build/dev)"},
    {Msg::kHelpState, "Progress file (default: <root>/.torchlings/state.json)",
     "진행 상황 파일 (기본값: <root>/.torchlings/state.json)"},
    {Msg::kHelpColor, "Colour: auto (a terminal without NO_COLOR), always or never",
     "색: auto (NO_COLOR가 없는 터미널), always, never 중 하나"},
    {Msg::kHelpList, "Lessons and exercises, with your progress",
     "강의와 연습 문제, 그리고 진행 상황"},
    {Msg::kHelpRun, "Build and run a lesson's demo: run 01 [--device cuda] [--processes N] [-- args]",
     "강의 데모를 빌드하고 실행합니다: run 01 [--device cuda] [--processes N] [-- 인자]"},
    {Msg::kHelpCheck,
     "Build an exercise and run its tests: check [<id>|<lesson>|--all] (default: current)",
     "연습 문제를 빌드하고 테스트합니다: check [<id>|<강의>|--all] (기본값: 현재 연습 문제)"},
    {Msg::kHelpWatch, "Check the current exercise on every save (keys: n h l c q)",
     "저장할 때마다 현재 연습 문제를 확인합니다 (키: n h l c q)"},
    {Msg::kHelpProgress, "Progress bars per lesson and for the course",
     "강의별, 과정 전체의 진행 막대"},
    {Msg::kHelpReset,
     "Back up your file, then restore the exercise's original stub: reset <id>|<lesson>",
     "여러분의 파일을 백업한 뒤 연습 문제의 원래 스텁으로 되돌립니다: reset <id>|<강의>"},
    {Msg::kHelpSolution, "Show the reference solution of an exercise you have done",
     "마친 연습 문제의 모범 답안을 보여 줍니다"},
    {Msg::kHelpExport,
     "Teachers: the course without solutions, with the graders of Classroom 50 and Gradescope",
     "교사용: 답안을 뺀 과정을 Classroom 50과 Gradescope 채점 스크립트와 함께 내보냅니다"},
    {Msg::kHelpHint, "Show the next hint for an exercise: hint [<id>] (default: current)",
     "연습 문제의 다음 힌트를 보여 줍니다: hint [<id>] (기본값: 현재 연습 문제)"},
    {Msg::kHelpTest, "Build everything and run every test (ctest) [-- ctest args]",
     "모두 빌드하고 모든 테스트를 실행합니다 (ctest) [-- ctest 인자]"},
    {Msg::kHelpDoctor, "Check the tools, the GPU and the build set-up",
     "도구, GPU, 빌드 설정을 점검합니다"},
    {Msg::kHelpHelp, "Show this list of commands", "이 명령 목록을 보여 줍니다"},
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
        const auto [code, length] = utf8_at(text, at);
        width += length != 0 && is_wide(code) ? 2 : 1;  // a stray byte: one column
        at += std::max<std::size_t>(length, 1);
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
