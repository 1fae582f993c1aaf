/// @file
/// @brief What the reports quote from the course's files: the test cases a test source declares
/// (name, tags, line and code), read with a small C++ lexer, and the files as a learner names
/// them. Internal to the reports.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.h"
#include "core/course.h"
#include "core/errors.h"
#include "core/text.h"

namespace torchlings::runner {

/// A TEST_CASE as declared in a test source.
struct DeclaredCase {
    std::string name;               ///< the first string literal, unescaped
    std::vector<std::string> tags;  ///< from the second string literal, without brackets
    int line = 0;                   ///< the line of `TEST_CASE`
    std::string code;  ///< the lines from TEST_CASE to the body's closing brace; empty if unsure
};

/// The TEST_CASEs of a test source, in order, read past comments and literals.
[[nodiscard]] std::vector<DeclaredCase> declared_cases(std::string_view source);

/// The course's files that the reports quote, each read once.
class Sources {
  public:
    explicit Sources(const Context& context) : context_(context) {
        try {
            course_ = &context.course();
        } catch (const EnvironmentError&) {
            // Without the course the reports leave out test code and file names.
        }
    }

    /// The test cases declared in the exercise's test file; empty when it cannot be read.
    const std::vector<DeclaredCase>& cases_of(const Exercise& exercise) {
        auto found = cases_.find(exercise.id);
        if (found != cases_.end()) {
            return found->second;
        }
        std::vector<DeclaredCase> cases;
        if (course_ != nullptr && course_->find_exercise(exercise.id) != nullptr) {
            try {
                cases = declared_cases(read_file(course_->test_file(exercise)));
            } catch (const EnvironmentError&) {
                // An unreadable test file: no source to quote.
            }
        }
        return cases_.emplace(exercise.id, std::move(cases)).first->second;
    }

    /// The declaration of one case, or nullptr.
    const DeclaredCase* find_case(const Exercise& exercise, const std::string& name) {
        const std::vector<DeclaredCase>& cases = cases_of(exercise);
        const auto found = std::find_if(cases.begin(), cases.end(), [&](const DeclaredCase& c) {
            return c.name == name || trim(c.name) == name;
        });
        return found == cases.end() ? nullptr : &*found;
    }

    /// The test file as the learner reads it; empty without the course.
    [[nodiscard]] std::string test_file(const Exercise& exercise) const {
        return has(exercise) ? context_.show(course_->test_file(exercise)) : std::string();
    }

    /// The learner's file as the learner reads it; empty without the course.
    [[nodiscard]] std::string learner_file(const Exercise& exercise) const {
        return has(exercise) ? context_.show(course_->learner_file(exercise)) : std::string();
    }

  private:
    [[nodiscard]] bool has(const Exercise& exercise) const {
        return course_ != nullptr && course_->find_exercise(exercise.id) != nullptr;
    }

    const Context& context_;
    const Course* course_ = nullptr;
    std::map<std::string, std::vector<DeclaredCase>> cases_;
};

}  // namespace torchlings::runner
