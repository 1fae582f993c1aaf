/// @file
/// @brief What the runner says to the learner, in every language it speaks: one table
/// (messages.cpp) of message ids with their English and Korean text, so that a translation is
/// read, and completed, in one place. Text for machines (--json, --junit, --classroom50,
/// --gradescope) is not here: it stays English.
#pragma once

#include <concepts>
#include <initializer_list>
#include <string>
#include <string_view>

#include "core/language.h"
#include "core/state.h"

namespace torchlings::runner {

/// One message; its text has placeholders {0}, {1}, ... for the arguments, in the order each
/// language needs.
enum class Msg {
    // check: one exercise
    kCheckHeader,            ///< {0} id, {1} lesson number, {2} title
    kTestsPassed,            ///< {0} id, {1} passed, {2} total
    kTestsSkipped,           ///< appended to kTestsPassed: {0} skipped
    kDone,                   ///< {0} the kTestsPassed line
    kNotPassedContradicted,  ///< {0} id, {1} exit status
    kNotPassedRefused,       ///< {0} id, {1} why (English)
    kAllSkipped,             ///< {0} id, {1} skipped, {2} total
    kBuildError,             ///< {0} id
    kStuck,                  ///< {0} command, {1} id
    kNext,                   ///< {0} command, {1} id
    kLessonBegins,           ///< {0} lesson number
    kLastExercise,
    kFirstFailure,  ///< {0} the words kFirstFailureWords (styled), {1} test case
    kFirstFailureWords,
    kFailedWithoutAssertion,
    kKnownMistake,  ///< {0} the mistake's title (from the catalogue, in English)
    kKnownMistakes,
    kProgramOutput,  ///< {0} lines
    kNoTestCasesRan,
    kCaseNotTrusted,
    kCaseSkipped,  ///< {0} reason
    kCaseStoppedHere,
    kCaseCrashedHere,
    kCaseExitedHere,
    kCaseNotRun,  ///< {0} test case
    // check: what a failed check or a stopped run means
    kTodoLeft,
    kTodoReplace,  ///< {0} the learner's file
    kTheExercise,  ///< what kTodoReplace names when the file is unknown
    kUncaughtException,
    kWithValues,
    kAtLocation,    ///< {0} file:line
    kSiteIn,        ///< {0} the check, e.g. REQUIRE( x ), {1} file:line
    kSiteAfter,     ///< {0} file:line
    kSiteBefore,    ///< {0} file:line
    kThrownAt,      ///< {0} a site (kSiteIn, kSiteAfter or kSiteBefore)
    kHappenedAt,    ///< {0} a site
    kStopLine,      ///< {0} headline, {1} kWhileRunning or kBeforeAnyCase
    kWhileRunning,  ///< {0} test case
    kBeforeAnyCase,
    kStopCrashed,    ///< {0} signal name
    kStopTimedOut,   ///< {0} seconds
    kStopTimeLimit,  ///< {0} seconds
    kStopExited,     ///< {0} exit status
    kStopExitCalled,
    kStopExitBeforeMain,
    kStopContradicted,  ///< {0} exit status
    kStopContradictedWhy,
    kStopRefused,
    kStopRefusedWhy,  ///< {0} why (English)
    kSignalSegv,
    kSignalAbrt,
    kSignalFpe,
    kSignalIll,
    kSignalBus,
    kSignalKill,
    // hint
    kNoHints,    ///< {0} id, {1} learner file
    kHintsFor,   ///< {0} id
    kHintAgain,  ///< {0} command, {1} id
    kLastHint,
    kAllHintsShown,  ///< {0} count, {1} command, {2} id
    kPressHAgain,
    // list
    kHintCountOne,   ///< {0} count (1)
    kHintCountMany,  ///< {0} count
    kHintsShown,     ///< {0} count
    kListLegend,
    kListProgress,  ///< {0} done, {1} total
    kListNext,      ///< {0} command, {1} id
    // status labels, as list and watch show them (the progress file keeps its own words)
    kStatusNotTried,
    kStatusDone,
    kStatusFailing,
    kStatusBuildError,
    kStatusSkipped,
    kStatusChanged,
    // watch
    kWatchKeys,
    kWatchStatusBar,  ///< {0} id, {1} lesson number, {2} lesson title, {3} done, {4} total,
                      ///< {5} status
    kWatchWatching,   ///< {0} file, {1} how
    kWatchPasses,
    kWatchSaveToCheck,
    kWatchKeysLine,    ///< {0} kWatchKeys
    kWatchUnknownKey,  ///< {0} kWatchKeys
    kWatchStopped,     ///< {0} command
    kWatchAllDone,
    kWatchNotMovingOn,
    kWatchNotTried,    ///< {0} id
    kWatchFailing,     ///< {0} id
    kWatchBuildError,  ///< {0} id
    kWatchChanged,     ///< {0} id
    kWatchSkipped,     ///< {0} id
    kWatchGoOnAnyway,  ///< {0} command, {1} id
    kWatchNeedsTerminal,
    kWatchOneAtATime,
    kWatchPlainCheck,
    kWatchPlainHint,
    kWatchPlainList,
    kWatchPlainProgress,
    kWatchCurrent,  ///< {0} id, {1} learner file
    // building a target (check, run)
    kBuilding,  ///< {0} target
    kBuildOk,   ///< {0} time
    kBuildFailed,
    kBuildExercises,  ///< {0} count: what one build of several exercises builds
    // check: several exercises
    kCannotBeChecked,  ///< {0} id
    kCheckedMany,      ///< {0} exercises checked, {1} passing
    kCoursePasses,
    // reset
    kResetReplacesOne,
    kResetReplacesMany,
    kResetConfirm,
    kResetAlreadyStub,  ///< {0} id, {1} file
    kNothingChanged,
    kResetSaved,     ///< {0} id, {1} backup, {2} file
    kResetMissing,   ///< {0} id, {1} file
    kResetNeedsYes,  ///< {0} the command with --yes
    // --help
    kHelpAbout,
    kHelpFlag,
    kHelpRoot,
    kHelpBuildDir,
    kHelpState,
    kHelpColor,
    kHelpList,
    kHelpRun,
    kHelpCheck,
    kHelpWatch,
    kHelpProgress,
    kHelpReset,
    kHelpSolution,
    kHelpExport,
    kHelpHint,
    kHelpTest,
    kHelpDoctor,
    kHelpHelp,
    kCount  ///< not a message: the number of messages
};

/// One argument of a message: text, or a whole number.
class MessageArg {
  public:
    // NOLINTBEGIN(google-explicit-constructor): arguments are written as plain values
    MessageArg(std::string_view text) : text_(text) {}
    MessageArg(const std::string& text) : text_(text) {}
    MessageArg(const char* text) : text_(text) {}
    template <std::integral T>
    requires(!std::same_as<T, char> && !std::same_as<T, bool>) MessageArg(T number)
        : text_(std::to_string(number)) {}
    // NOLINTEND(google-explicit-constructor)

    [[nodiscard]] const std::string& text() const { return text_; }

  private:
    std::string text_;
};

/// The text of a message in a language, its placeholders replaced by the arguments.
[[nodiscard]] std::string message(Language language, Msg id,
                                  std::initializer_list<MessageArg> args = {});

/// The status word that list, progress and watch show.
[[nodiscard]] std::string status_text(Language language, ExerciseStatus status);

/// Columns a text takes on a terminal: Hangul and other wide characters take two.
[[nodiscard]] std::size_t display_width(std::string_view text);

/// The text with spaces after it up to `width` columns (unchanged when it is wider).
[[nodiscard]] std::string pad_to_width(std::string text, std::size_t width);

}  // namespace torchlings::runner
