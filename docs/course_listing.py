#!/usr/bin/env python3
"""The course's lessons and exercises as the runner reads them (`torchlings-runner list --json`,
runner/README.md): the one way the course's Python tools learn what info.md and info.ko.md
declare, so that none of them parses those files itself.

    python3 docs/course_listing.py <course root> [--runner PATH] [--lang en|ko]
    ./torchlings list --json | python3 docs/course_listing.py -

prints each exercise id in course order, one a line (scripts/measure/measure_check_loop.sh uses the
second form, whatever build folder the wrapper picks). Without --runner the runner is
<course root>/build/dev/bin/torchlings-runner, where `./torchlings` builds it, else the one in
build/dev/bin of the checkout holding this script. As a module: find_runner() and listing().
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

RUNNER = Path("build") / "dev" / "bin" / "torchlings-runner"


class ListingError(Exception):
    """The runner is missing or refused the course (its message names the file and line)."""


def find_runner(root, given=None):
    """The runner to ask: `given`, else the one `./torchlings` builds under `root`, else the one
    of the checkout this script is in (for a course elsewhere, such as a scratch copy)."""
    here = Path(__file__).resolve().parent.parent
    candidates = [Path(given)] if given else [Path(root) / RUNNER, here / RUNNER]
    for runner in candidates:
        if os.access(runner, os.X_OK):
            return runner
    raise ListingError(f"no runner at {' or '.join(map(str, candidates))}; build it (cmake --build "
                       "build/dev --target torchlings-runner, or ./torchlings list) or pass "
                       "--runner PATH")


def take_option(args, name, usage):
    """Removes `name VALUE` from the list `args` and returns VALUE (None when absent); exits with
    `usage` when the value is missing."""
    if name not in args:
        return None
    at = args.index(name)
    if at + 1 == len(args):
        sys.exit(usage)
    value = args.pop(at + 1)
    del args[at]
    return value


def listing(root, runner, lang="en"):
    """The course under `root` in `lang` ("en" or "ko"), as `list --json` prints it. Reads no
    progress file (a fresh one, in a scratch folder), so no exercise has a status."""
    env = dict(os.environ, TORCHLINGS_LANG=lang)
    with tempfile.TemporaryDirectory() as scratch:
        result = subprocess.run(
            [str(runner), "--root", str(root), "--state", str(Path(scratch) / "state.json"),
             "--color=never", "list", "--json"],
            capture_output=True, text=True, env=env, check=False)
    if result.returncode != 0:
        said = (result.stderr or result.stdout).strip()
        raise ListingError(f"torchlings-runner list --json (TORCHLINGS_LANG={lang}) exited "
                           f"{result.returncode}: {said}")
    return json.loads(result.stdout)


def main():
    args = sys.argv[1:]
    runner, lang = take_option(args, "--runner", __doc__), take_option(args, "--lang", __doc__)
    if len(args) != 1:
        sys.exit(__doc__)
    try:
        if args[0] == "-":
            course = json.load(sys.stdin)
        else:
            root = Path(args[0]).resolve()
            course = listing(root, find_runner(root, runner), lang or "en")
    except (ListingError, ValueError) as error:
        sys.exit(f"course_listing: {error}")
    for lesson in course["lessons"]:
        for exercise in lesson["exercises"]:
            print(exercise["id"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
