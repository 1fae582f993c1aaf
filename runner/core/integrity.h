/// @file
/// @brief What the learner's file does that no answer needs: a scan of its compiled object (the
/// symbols it defines and uses, its sections) and of its text, made after each successful build.
/// The learner's code runs inside the test program, so whatever it could do there to the
/// reporter is either refused (the run is not passed) or flagged for the teacher. See
/// runner/README.md, "Forged results".
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.h"

namespace torchlings::runner {

/// One finding about a learner's file.
struct IntegrityFlag {
    /// What kind of thing, as a stable word for machines: "interposes-symbol", "preinit-array",
    /// "ifunc", "catch2-internals", "startup-order", "exit-path", "descriptors", "environment",
    /// "processes", "memory", "dynamic-symbols", "system-calls", "signals", "reporter",
    /// "process-files", "inline-assembly", "not-scanned"; and, from the run rather than the
    /// file, "fewer-assertions" and "assertions-not-compared" (core/assertion_counts.h).
    std::string code;
    std::string detail;    ///< what was found, for people: "uses _exit, write"
    bool refused = false;  ///< the run cannot pass with this in the file
};

/// Findings from `nm -P` output of the learner's object (name, type, value, size per line).
[[nodiscard]] std::vector<IntegrityFlag> flags_from_symbols(std::string_view nm_output);

/// Findings from the names of the object's sections.
[[nodiscard]] std::vector<IntegrityFlag> flags_from_sections(
    const std::vector<std::string>& sections);

/// Findings from the text of the learner's file.
[[nodiscard]] std::vector<IntegrityFlag> flags_from_source(std::string_view source);

/// The names of an ELF object's sections; empty when it is not a 64-bit little-endian ELF file.
[[nodiscard]] std::vector<std::string> elf_section_names(const std::filesystem::path& object);

/// The object files CMake compiled the learner's file of `ex_<id>` into, under the build folder.
[[nodiscard]] std::vector<std::filesystem::path> learner_objects(
    const std::filesystem::path& build_dir, std::string_view id);

/// Every finding about the exercise's learner file: its text, and its object when one is found
/// and `nm` is installed (else a "not-scanned" flag says why).
[[nodiscard]] std::vector<IntegrityFlag> scan_learner_file(const Context& context,
                                                           const Exercise& exercise);

/// The refused findings, in one sentence ("the file defines write, ..."); empty when none.
[[nodiscard]] std::string refusal_text(const std::vector<IntegrityFlag>& flags);

}  // namespace torchlings::runner
