#!/usr/bin/env python3
"""The runner's library is a unity build (runner/CMakeLists.txt): several of its .cpp files are
compiled as one translation unit, so what one file declares in its anonymous namespace is seen by
the files after it in the same batch. Two files that declare the same name there fail to compile
once they share a batch; worse, a name there that is also declared in one of the runner's headers
overloads it, and a call in another file of the batch may silently take the wrong one (a file's own
`replace_file` once replaced a device node where the header's writes to it). This check (a CTest,
label `runner`) fails, naming the files, when a name declared at the top of a library file's
anonymous namespace (a function, a constant, a type, an alias) is also declared so in another
library file, or is a function name declared in a header of runner/.

    python3 tests/runner/internal_names.py [--root ROOT]

It reads the sources as text: declarations are the lines of an anonymous namespace that start at
its first column; comments are left out.
"""
import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

DECLARATION = re.compile(
    r"^(?:template\s*<[^>]*>\s*)?(?:\[\[\w+\]\]\s*)?"
    r"(?:(?:struct|class|enum(?:\s+class)?)\s+(?P<type>\w+)"
    r"|using\s+(?P<alias>\w+)\s*="
    r"|(?:[\w:<>,*&\[\]]+\s+)+[*&]?(?P<name>\w+)\s*(?:\(|=|\{|\[))")
KEYWORDS = {"return", "if", "for", "while", "switch", "else", "case", "namespace", "operator"}


def without_comments(text):
    """`text` without // and /* */ comments (string literals are not told apart: good enough for
    declarations, which this reads)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def library_files(root):
    """The .cpp files of torchlings_runner_lib, as runner/CMakeLists.txt lists them."""
    cmake = (root / "runner" / "CMakeLists.txt").read_text(encoding="utf-8")
    listing = re.search(r"add_library\(torchlings_runner_lib\s+STATIC\s+([^)]*)\)", cmake)
    if not listing:
        raise SystemExit("runner/CMakeLists.txt: no add_library(torchlings_runner_lib STATIC ...)")
    return [root / "runner" / name for name in listing.group(1).split()]


def anonymous_names(text):
    """Names declared at the top of the anonymous namespaces of one file, with their lines."""
    names = {}
    raw = text.split("\n")  # with its comments: `}  // namespace` closes one
    inside = False
    for number, line in enumerate(without_comments(text).split("\n"), start=1):
        if line.rstrip() == "namespace {":
            inside = True
        elif inside and line.startswith("}") and "namespace" in raw[number - 1]:
            inside = False
        elif inside and line and not line[0].isspace():
            match = DECLARATION.match(line)
            if match:
                name = match.group("type") or match.group("alias") or match.group("name")
                if name and name not in KEYWORDS:
                    names.setdefault(name, number)
    return names


def header_functions(root):
    """Function names declared in the runner's headers, each with the first header naming it."""
    names = {}
    for header in sorted((root / "runner").glob("**/*.h")):
        text = without_comments(header.read_text(encoding="utf-8"))
        for match in re.finditer(r"\b(\w+)\s*\(", text):
            if match.group(1) not in KEYWORDS:
                names.setdefault(match.group(1), header.relative_to(root).as_posix())
    return names


def problems(root):
    """One line per clash, naming the files and lines."""
    found = defaultdict(list)
    for source in library_files(root):
        shown = source.relative_to(root).as_posix()
        for name, line in anonymous_names(source.read_text(encoding="utf-8")).items():
            found[name].append(f"{shown}:{line}")
    headers = header_functions(root)
    result = []
    for name, places in sorted(found.items()):
        if len(places) > 1:
            result.append(f"'{name}' is declared in the anonymous namespaces of "
                          f"{' and '.join(places)}: give each its own name")
        elif name in headers:
            result.append(f"'{name}' ({places[0]}, anonymous namespace) overloads the function of "
                          f"{headers[name]}: a file compiled after it in the same batch may call "
                          "it instead; give it its own name")
    return result


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    root = parser.parse_args(argv).root.resolve()
    clashes = problems(root)
    for clash in clashes:
        print(clash, file=sys.stderr)
    if clashes:
        print(f"{len(clashes)} name(s) of the runner's library would clash in its unity build",
              file=sys.stderr)
        return 1
    print(f"runner's library: the names of its {len(library_files(root))} files' anonymous "
          "namespaces are their own")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
