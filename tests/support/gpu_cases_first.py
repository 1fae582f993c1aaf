#!/usr/bin/env python3
"""Checks that every test program declares its [gpu] cases before any case that uses the
stand-in accelerator.

The runner runs a test program whole, its cases in declaration order, in one process. The first
stand-in case names LibTorch's PrivateUse1 backend, which makes it the process's one accelerator
(at::getAccelerator() prefers it to CUDA); a backward pass over CUDA tensors after that stops in
the autograd engine (PyTorch issue 161129). So on a GPU a [gpu] case after a stand-in case fails
for a reason that is not the learner's. TL_REQUIRE_CUDA() says so on a GPU; this check says so
on every machine.

    gpu_cases_first.py ROOT
"""
import pathlib
import re
import sys

CASE = re.compile(r"^TEST_CASE\((.*?)\)\s*\{", re.M | re.S)


def misplaced(text):
    """The names of the [gpu] cases declared after a case that uses the stand-in."""
    cases = list(CASE.finditer(text))
    seen_standin = None
    late = []
    for i, case in enumerate(cases):
        end = cases[i + 1].start() if i + 1 < len(cases) else len(text)
        head, body = case.group(1), text[case.start():end]
        name = head.split('",')[0].strip().strip('"')
        if "[gpu]" in head and seen_standin is not None:
            late.append(f'"{name}" comes after "{seen_standin}"')
        if "standin" in body and seen_standin is None:
            seen_standin = name
    return late


def main():
    root = pathlib.Path(sys.argv[1])
    files = sorted((root / "tests").rglob("*_test.cpp"))
    problems = [f"{path.relative_to(root)}: {late}" for path in files
                for late in misplaced(path.read_text(encoding="utf-8"))]
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} [gpu] case(s) declared after a stand-in case: move them up")
        return 1
    print(f"{len(files)} test files: every [gpu] case comes before the stand-in cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
