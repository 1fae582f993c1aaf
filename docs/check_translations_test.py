#!/usr/bin/env python3
"""Test of docs/check_translations.py's code comparison (a CTest, label `docs`), on a scratch
course of one lesson and one notebook: a Korean page whose code blocks differ from the English ones
only in their comments is in step; one with a changed line of code is not, and the message names
the Korean file and line, the block and the English line expected. A Korean notebook whose
markdown is translated and whose LANGUAGE defaults to "ko" is in step; one that drifted (a code
line changed, LANGUAGE left English, a cell missing, added or of another type, a tag changed) or
is missing is not, and the message names the cell. An info.ko.md with the ids and hint counts of
its info.md is in step; one with a hint missing or its exercises reordered is not, and the message
is the runner's, naming the file and line (those cases run the runner: --runner PATH, else
build/dev/bin/torchlings-runner of this checkout; without one they fail, saying so).

    python3 docs/check_translations_test.py [--runner PATH]
"""
import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

CHECK = Path(__file__).with_name("check_translations.py")
sys.path.insert(0, str(CHECK.parent))
sys.dont_write_bytecode = True  # importing course_listing leaves no __pycache__ in the course
from course_listing import ListingError, find_runner, take_option  # noqa: E402

INFO = """# Lesson 01 exercises

## first_one: The first

timeout_s: 5

### Hint

One.

```cpp
## not a heading in code
```

### Hint

Two.

## second_one: The second
"""

INFO_KO = """# 강의 01 연습 문제

## first_one: 첫 번째

timeout_s: 5

### Hint

하나.

### Hint

둘.

## second_one: 두 번째
"""

ENGLISH = """# Lesson 01 — Test

```sh
./torchlings run 01    # auto: CUDA if present
echo "a # in quotes is code" $#
```

```cpp
// Pick a device once.
auto device = torchlings::choose_device("auto");  /* never a fallback */
std::string url = "http://example";
```

```cmake
# The floor.
cmake_minimum_required(VERSION 3.25)
```

```text
shown output # stays as it is
```
"""

KOREAN_SAME = """# 강의 01 — 테스트

```sh
./torchlings run 01    # auto: CUDA가 있으면 CUDA
echo "a # in quotes is code" $#
```

```cpp
// 장치는 한 번 고릅니다.
// 두 줄로 나눈 주석도 됩니다.
auto device = torchlings::choose_device("auto");  /* 대체하지 않음 */
std::string url = "http://example";
```

```cmake
# 최소 버전
cmake_minimum_required(VERSION 3.25)
```

```text
shown output # stays as it is
```
"""


def cell(kind, source, tags=()):
    out = {"cell_type": kind, "metadata": {"tags": list(tags)} if tags else {},
           "source": source.splitlines(keepends=True)}
    if kind == "code":
        out.update(execution_count=None, outputs=[])
    return out


NOTEBOOK = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
    cell("markdown", "# torchlings on Colab\n\nRun the cells from the top."),
    cell("code", 'import os\n\nLANGUAGE = ""  # "ko": Korean\nif LANGUAGE:\n'
                 '    os.environ["TORCHLINGS_LANG"] = LANGUAGE', ["language"]),
    cell("markdown", "## 1. Lesson 01"),
    cell("code", "!./torchlings run 01", ["lesson-01"]),
]}
NOTEBOOK_KO = copy.deepcopy(NOTEBOOK)
NOTEBOOK_KO["cells"][0]["source"] = ["# Colab에서 torchlings 시작하기\n", "\n",
                                     "셀을 위에서부터 실행합니다."]
NOTEBOOK_KO["cells"][1]["source"][2] = 'LANGUAGE = "ko"  # "ko": Korean\n'
NOTEBOOK_KO["cells"][2]["source"] = ["## 1. 강의 01"]


def drifted(change):
    notebook = copy.deepcopy(NOTEBOOK_KO)
    change(notebook["cells"])
    return notebook


def run(korean, notebook_ko=NOTEBOOK_KO, info=None, runner=None):
    """The check on a scratch course; `info` = (info.md, info.ko.md) adds a lesson's exercises,
    checked with `runner`."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        lesson = root / "lessons" / "01_test"
        lesson.mkdir(parents=True)
        if info:
            (root / "exercises" / "01_test").mkdir(parents=True)
            for name, text in zip(("info.md", "info.ko.md"), info):
                (root / "exercises" / "01_test" / name).write_text(text, encoding="utf-8")
        (root / "docs").mkdir()
        (root / "README.md").write_text("# t\n", encoding="utf-8")
        (lesson / "README.md").write_text(ENGLISH, encoding="utf-8")
        (lesson / "README.ko.md").write_text(korean, encoding="utf-8")
        (root / "notebooks").mkdir()
        (root / "notebooks" / "colab.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
        if notebook_ko is not None:
            (root / "notebooks" / "colab.ko.ipynb").write_text(
                json.dumps(notebook_ko, ensure_ascii=False), encoding="utf-8")
        result = subprocess.run([sys.executable, str(CHECK), str(root)]
                                + (["--runner", str(runner)] if runner else []),
                                capture_output=True, text=True)
        return result.returncode, result.stdout + result.stderr


def main():
    failures = []
    rc, out = run(KOREAN_SAME)
    if rc != 0:
        failures.append(f"comments translated: expected in step, got {rc}:\n{out}")
    cases = [
        ('auto device = torchlings::choose_device("auto");',
         'auto device = torchlings::choose_device("cpu");', "```cpp", 11),
        ('echo "a # in quotes is code" $#', 'echo "a # 따옴표 안도 코드" $#', "```sh", 5),
        ("cmake_minimum_required(VERSION 3.25)", "cmake_minimum_required(VERSION 3.20)",
         "```cmake", 17),
    ]
    for old, new, block, line in cases:
        rc, out = run(KOREAN_SAME.replace(old, new))
        expected = [f"lessons/01_test/README.ko.md:{line}:", f"the {block} block",
                    "lessons/01_test/README.md:", repr(old), repr(new)]
        missing = [e for e in expected if e not in out]
        if rc != 1 or missing:
            failures.append(f"code changed in {block}: expected exit 1 and {missing}, "
                            f"got {rc}:\n{out}")
    ko = "notebooks/colab.ko.ipynb"
    notebook_cases = [
        ("a code line changed",
         drifted(lambda c: c[3]["source"].__setitem__(0, "!./torchlings run 02")),
         [f"{ko}: cell 4", "line 1", repr("!./torchlings run 01"), repr("!./torchlings run 02")]),
        ("LANGUAGE left English",
         drifted(lambda c: c[1]["source"].__setitem__(2, 'LANGUAGE = ""\n')),
         [f"{ko}: cell 2", "line 3", repr('LANGUAGE = "ko"  # "ko": Korean'),
          repr('LANGUAGE = ""')]),
        ("a comment changed", drifted(lambda c: c[1]["source"].__setitem__(
            2, 'LANGUAGE = "ko"  # 한국어\n')), [f"{ko}: cell 2", "line 3"]),
        ("a cell missing", drifted(lambda c: c.pop(2)),
         [f"{ko}: cell 3", "a code cell, expected a markdown cell"]),
        ("a cell added", drifted(lambda c: c.append(cell("markdown", "끝"))),
         [f"{ko}: 5 cells, expected 4"]),
        ("a cell's type changed", drifted(lambda c: c[0].update(cell_type="raw")),
         [f"{ko}: cell 1", "a raw cell, expected a markdown cell"]),
        ("a tag changed", drifted(lambda c: c[3]["metadata"].update(tags=["lesson-1"])),
         [f"{ko}: cell 4", "tags ['lesson-1'], expected ['lesson-01']"]),
        ("the twin missing", None, [f"{ko}: missing"]),
    ]
    for name, notebook_ko, expected in notebook_cases:
        rc, out = run(KOREAN_SAME, notebook_ko)
        missing = [e for e in expected if e not in out]
        if rc != 1 or missing:
            failures.append(f"notebook, {name}: expected exit 1 and {missing}, "
                            f"got {rc}:\n{out}")
    info_cases = exercise_cases(failures)
    if failures:
        print("check_translations_test:", *failures, sep="\n  ")
        return 1
    print(f"check_translations_test: {1 + len(cases) + len(notebook_cases) + info_cases} cases "
          "as expected")
    return 0


def exercise_cases(failures):
    """info.ko.md against info.md, as the runner reads them. Returns the number of cases."""
    given = take_option(sys.argv[1:], "--runner", __doc__)
    try:
        runner = find_runner(Path(__file__).resolve().parent.parent, given)
    except ListingError as error:
        failures.append(f"info.ko.md cases: {error}")
        return 0
    rc, out = run(KOREAN_SAME, info=(INFO, INFO_KO), runner=runner)
    if rc != 0:
        failures.append(f"info.ko.md in step: expected exit 0, got {rc}:\n{out}")
    ko = "exercises/01_test/info.ko.md"
    drifts = [
        ("a hint missing", INFO_KO.replace("### Hint\n\n둘.\n", ""),
         [f"{ko}:3:", '"## first_one" has 1 "### Hint" sections', "info.md has 2"]),
        ("exercises reordered",
         "## second_one: 두 번째\n\n## first_one: 첫 번째\n\ntimeout_s: 5\n\n### Hint\n\n하나."
         "\n\n### Hint\n\n둘.\n",
         [f"{ko}:1:", 'expected "## first_one: ..."', 'got "## second_one"']),
    ]
    for name, info_ko, expected in drifts:
        rc, out = run(KOREAN_SAME, info=(INFO, info_ko), runner=runner)
        missing = [e for e in expected if e not in out]
        if rc != 1 or missing:
            failures.append(f"info.ko.md, {name}: expected exit 1 and {missing}, got {rc}:\n{out}")
    rc, out = run(KOREAN_SAME, info=(INFO, INFO_KO), runner=Path("/nonexistent/runner"))
    if rc != 1 or "no runner at /nonexistent/runner" not in out:
        failures.append(f"info.ko.md without a runner: expected exit 1 naming the runner, got "
                        f"{rc}:\n{out}")
    return 2 + len(drifts)


def test_check_translations():
    """The same cases under pytest (`python3 -m pytest docs/check_translations_test.py`)."""
    assert main() == 0


if __name__ == "__main__":
    sys.exit(main())
