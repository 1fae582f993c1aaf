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
# A function, struct or class defined at the start of a line (file scope or an unnamed namespace):
# its name, then its body from the brace that opens it.
DEFINITION = re.compile(r"^(?=[A-Za-z_])(?:[\w:<>,*& ]+?\b(\w+)\s*\([^;{}]*\)[^;{}]*|(?:struct|class)\s+(\w+)[^;{]*)\{",
                        re.M)
USING = re.compile(r"using\s+tl_test::standin::(\w+)\s*;")


def block_end(text, opening):
    """The index just past the brace that closes the one at `opening`."""
    depth = 0
    for i in range(opening, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i + 1
    return len(text)


def standin_names(text):
    """The names that reach the stand-in: tl_test::standin itself, names taken from it with
    `using`, and every function or type defined in the file whose body uses one of them."""
    names = {"standin"} | set(USING.findall(text))
    bodies = {}
    for match in DEFINITION.finditer(text):
        name = match.group(1) or match.group(2)
        if name and name != "TEST_CASE":
            bodies[name] = text[match.end() - 1:block_end(text, match.end() - 1)]
    grew = True
    while grew:
        grew = False
        for name, body in bodies.items():
            if name not in names and uses(body, names):
                names.add(name)
                grew = True
    return names


def uses(body, names):
    return any(re.search(rf"\b{re.escape(name)}\b", body) for name in names)


def misplaced(text):
    """The names of the [gpu] cases declared after a case that uses the stand-in."""
    names = standin_names(text)
    cases = list(CASE.finditer(text))
    seen_standin = None
    late = []
    for i, case in enumerate(cases):
        end = cases[i + 1].start() if i + 1 < len(cases) else len(text)
        head, body = case.group(1), text[case.end():end]
        name = head.split('",')[0].strip().strip('"')
        if "[gpu]" in head and seen_standin is not None:
            late.append(f'"{name}" comes after "{seen_standin}"')
        if seen_standin is None and uses(strip_comments(body), names):
            seen_standin = name
    return late


def strip_comments(code):
    return re.sub(r"//[^\n]*", "", code)


def main():
    root = pathlib.Path(sys.argv[1])
    files = sorted((root / "tests").rglob("*_test.cpp"))
    if not files:
        print(f"no test files (*_test.cpp) under {root / 'tests'}: is this the course's folder?")
        return 2
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
