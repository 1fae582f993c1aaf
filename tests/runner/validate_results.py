#!/usr/bin/env python3
"""validate_results.py: a result file checked the way its platform checks it, and its score.

    python3 validate_results.py classroom50 result.json SCORE MAX_SCORE [TESTS]
    python3 validate_results.py gradescope results.json SCORE MAX_SCORE [TESTS]

classroom50: the fields an autograder writes (schema classroom50/result/v1), then Classroom 50's
runner's own check after it stamps owner and assignment_type: strings non-empty, submission a
submit/* tag, integer scores (not booleans) with score <= max-score, tests[] of test-name,
passed (boolean), score and max-score, datetime in UTC (YYYY-MM-DDTHH:MM:SSZ).
gradescope: results.json as Gradescope's specs.md describes it: tests[] with name, score,
max_score, status (passed|failed), output and visibility; the total is the tests' sum.
Both: torchlings_sandbox (Gradescope: in extra_data, when the file has it) is "bubblewrap",
"separate user: <why not bubblewrap>" or "none: <why>", and torchlings_test_seed, the seed of the run's hidden inputs, a non-negative
integer below 2^64.
SCORE and MAX_SCORE are what the file must give; TESTS, the number of tests (or "-").
Prints what is wrong and exits 1, else prints the score and exits 0.
"""

import json
import re
import sys

UTC = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")
AUTOGRADER_FIELDS = {"schema", "classroom", "assignment", "submission", "commit", "release",
                     "review", "datetime", "score", "max-score", "tests"}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def integer(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def sandbox_problems(value):
    """torchlings_sandbox: how the test programs were contained: "bubblewrap",
    "separate user: <why not bubblewrap>" or "none: <why>"."""
    if not isinstance(value, str) or not (
            value == "bubblewrap" or value.startswith(("separate user: ", "none: "))):
        return [f"torchlings_sandbox {value!r} is none of \"bubblewrap\", "
                "\"separate user: <why>\" and \"none: <why>\""]
    return []


def seed_problems(value):
    """torchlings_test_seed: the seed the test programs drew their hidden inputs from."""
    if not integer(value) or value >= 2 ** 64:
        return [f"torchlings_test_seed {value!r} is not an integer from 0 to 2^64 - 1"]
    return []


def classroom50(data, env):
    problems = []
    missing = AUTOGRADER_FIELDS - set(data)
    if missing:
        problems.append(f"fields missing: {sorted(missing)}")
    extra = set(data) - AUTOGRADER_FIELDS - {"torchlings_skipped", "torchlings_flags",
                                             "torchlings_sandbox", "torchlings_test_seed"}
    if extra:
        problems.append(f"fields no autograder writes: {sorted(extra)}")
    problems += sandbox_problems(data.get("torchlings_sandbox"))
    problems += seed_problems(data.get("torchlings_test_seed"))
    if data.get("schema") != "classroom50/result/v1":
        problems.append(f"schema {data.get('schema')!r}")
    for field, variable in (("classroom", "CLASSROOM"), ("assignment", "ASSIGNMENT"),
                            ("submission", "SUBMISSION_TAG"), ("commit", "COMMIT_URL"),
                            ("release", "RELEASE_URL"), ("review", "REVIEW_URL")):
        if data.get(field) != env.get(variable):
            problems.append(f"{field} {data.get(field)!r}, the runner set {env.get(variable)!r}")
    # What Classroom 50's runner stamps before it validates.
    data = dict(data, owner="learner", assignment_type="individual")
    if not str(data.get("submission", "")).startswith("submit/"):
        problems.append("submission is not a submit/* tag")
    for field in ("commit", "release", "review", "datetime", "owner"):
        if not isinstance(data.get(field), str) or not data[field]:
            problems.append(f"{field} is not a non-empty string")
    if not UTC.fullmatch(str(data.get("datetime", ""))):
        problems.append(f"datetime {data.get('datetime')!r} is not UTC")
    if not integer(data.get("score")) or not integer(data.get("max-score")):
        problems.append("score and max-score must be non-negative integers")
    elif data["score"] > data["max-score"]:
        problems.append("score > max-score")
    tests = data.get("tests")
    if not isinstance(tests, list):
        return problems + ["tests is not a list"], None, None, None
    for i, test in enumerate(tests):
        if not isinstance(test, dict) or set(test) != {"test-name", "passed", "score", "max-score"}:
            problems.append(f"tests[{i}] is not {{test-name, passed, score, max-score}}: {test}")
            continue
        if not isinstance(test["test-name"], str) or not test["test-name"]:
            problems.append(f"tests[{i}].test-name")
        if not isinstance(test["passed"], bool):
            problems.append(f"tests[{i}].passed is not a boolean")
        if not integer(test["score"]) or not integer(test["max-score"]) or \
                test["score"] > test["max-score"]:
            problems.append(f"tests[{i}] scores")
    if sum(t.get("score", 0) for t in tests if isinstance(t, dict)) != data.get("score"):
        problems.append("score is not the sum of the tests' scores")
    return problems, data.get("score"), data.get("max-score"), len(tests)


def gradescope(data, _env):
    problems = []
    tests = data.get("tests")
    if not isinstance(tests, list):
        return ["tests is not a list"], None, None, None
    for i, test in enumerate(tests):
        if not isinstance(test, dict):
            problems.append(f"tests[{i}] is not an object")
            continue
        for field in ("name", "score", "max_score", "status", "output", "visibility"):
            if field not in test:
                problems.append(f"tests[{i}] has no {field}")
        if not isinstance(test.get("name"), str) or not test.get("name"):
            problems.append(f"tests[{i}].name")
        if not integer(test.get("score")) or not integer(test.get("max_score")):
            problems.append(f"tests[{i}] scores are not integers")
        if test.get("status") not in ("passed", "failed"):
            problems.append(f"tests[{i}].status {test.get('status')!r}")
        if test.get("visibility") not in VISIBILITY:
            problems.append(f"tests[{i}].visibility {test.get('visibility')!r}")
        if not isinstance(test.get("output"), str):
            problems.append(f"tests[{i}].output is not a string")
    if "score" in data:
        if not integer(data["score"]):
            problems.append("score is not an integer")
        score = data["score"]
    else:
        score = sum(t.get("score", 0) for t in tests if isinstance(t, dict))
    maximum = sum(t.get("max_score", 0) for t in tests if isinstance(t, dict))
    if "output" in data and not isinstance(data["output"], str):
        problems.append("output is not a string")
    if "extra_data" in data:  # a graded run's (a refusal runs nothing)
        problems += sandbox_problems(data["extra_data"].get("torchlings_sandbox"))
        problems += seed_problems(data["extra_data"].get("torchlings_test_seed"))
    return problems, score, maximum, len(tests)


def main():
    import os
    platform, path, want_score, want_max = sys.argv[1:5]
    want_tests = sys.argv[5] if len(sys.argv) > 5 else "-"
    with open(path, encoding="utf-8") as file:
        data = json.load(file, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    if not isinstance(data, dict):
        print(f"{path}: not a JSON object")
        return 1
    check = classroom50 if platform == "classroom50" else gradescope
    problems, score, maximum, count = check(data, os.environ)
    if score != int(want_score) or maximum != int(want_max):
        problems.append(f"score {score}/{maximum}, expected {want_score}/{want_max}")
    if want_tests != "-" and count != int(want_tests):
        problems.append(f"{count} tests, expected {want_tests}")
    if problems:
        print(f"{path} ({platform}):\n  " + "\n  ".join(problems))
        print(json.dumps(data, indent=2))
        return 1
    print(f"{path} ({platform}): valid, {score}/{maximum}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
