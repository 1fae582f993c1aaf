#!/usr/bin/env python3
"""Test of docs/check_translations.py's code comparison (a CTest, label `docs`), on a scratch
course of one lesson: a Korean page whose code blocks differ from the English ones only in their
comments is in step; one with a changed line of code is not, and the message names the Korean
file and line, the block and the English line expected.

    python3 docs/check_translations_test.py
"""
import subprocess
import sys
import tempfile
from pathlib import Path

CHECK = Path(__file__).with_name("check_translations.py")

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


def run(korean):
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        lesson = root / "lessons" / "01_test"
        lesson.mkdir(parents=True)
        (root / "docs").mkdir()
        (root / "README.md").write_text("# t\n", encoding="utf-8")
        (lesson / "README.md").write_text(ENGLISH, encoding="utf-8")
        (lesson / "README.ko.md").write_text(korean, encoding="utf-8")
        result = subprocess.run([sys.executable, str(CHECK), str(root)], capture_output=True,
                                text=True)
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
    if failures:
        print("check_translations_test:", *failures, sep="\n  ")
        return 1
    print(f"check_translations_test: {1 + len(cases)} cases as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
