#!/usr/bin/env python3
"""Fails when the output a lesson's page shows and the lesson's real output have drifted apart in
structure (the CTest lessonNN/readme_matches_demo, label `readme`).

    python3 docs/check_readme_output.py --page README.md [--page README.ko.md ...]
                                        [--launch 'LAUNCHER|ARG|...'] DEMO

The demo runs once; every page given (the English README and its translations) is held to that
one output. A page marks its shown output with a line `<!-- demo-output -->` directly above a
```text fence, exactly once: the run on a machine without a GPU. A page may also show whole runs
on a real GPU, each under `<!-- gpu-output -->`; their values are that machine's, but with their
GPU sections dropped their skeletons must equal the demo's too, so that they cannot drift either.
Excerpts of GPU runs go in fences without a marker and are not checked. A fence's first line is
left out when it is the command itself (`$ ./torchlings run 01`).

Both outputs are reduced to a skeleton before they are compared, line by line:
- blank lines are dropped;
- sections whose header starts with "== GPU" repeat once per GPU, so they are dropped (up to the
  next "== " header);
- a run of "- " bullets is free text (explanations that depend on the machine): one "- ..." line;
- a line "Key: value" becomes "Key:";
- any other line keeps its text, with each run of digits replaced by '#'.
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

DEMO_MARKER = "<!-- demo-output -->"
GPU_MARKER = "<!-- gpu-output -->"
TIMEOUT_S = 100


class OutputError(Exception):
    """What is wrong with a page, or between a page and the demo: the message to print."""


def skeleton(text):
    """The lines of `text` that must agree, as described at the top of this file."""
    result = []
    in_gpu_section = False
    for line in text.split("\n"):
        line = line.rstrip(" \t\r")
        if not line:
            continue
        if line.startswith("== "):
            in_gpu_section = line.startswith("== GPU")
            if in_gpu_section:
                continue
        if in_gpu_section:
            continue
        if line.startswith("- "):
            if not result or result[-1] != "- ...":
                result.append("- ...")
            continue
        key = re.match(r"([^:]+):", line)
        if key:
            result.append(key.group(1).rstrip(" \t") + ":")
        else:
            result.append(re.sub(r"[0-9]+", "#", line))
    return result


def fences_after(page, text, marker):
    """The shown output of each ```text fence right after a line `marker` in `text`."""
    shown = []
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if line.rstrip(" \t\r") != marker:
            continue
        if number + 1 >= len(lines) or lines[number + 1].rstrip(" \t\r") != "```text":
            raise OutputError(f"{page}:{number + 1}: expected a ```text fence right after {marker}")
        body = []
        for inner in lines[number + 2:]:
            if inner.startswith("```"):
                break
            body.append(inner)
        else:
            raise OutputError(f"{page}:{number + 2}: the ```text fence after {marker} is never "
                              "closed")
        if body and body[0].startswith("$"):
            body = body[1:]
        shown.append("\n".join(body))
    return shown


def shown_outputs(page, text):
    """The page's run without a GPU and its whole GPU runs, each as (what, shown text)."""
    demo = fences_after(page, text, DEMO_MARKER)
    if not demo:
        raise OutputError(f"{page}: expected a line {DEMO_MARKER} above the shown output")
    if len(demo) > 1:
        raise OutputError(f"{page}: {DEMO_MARKER} appears {len(demo)} times; mark only the run "
                          f"without a GPU with it (a whole GPU run takes {GPU_MARKER})")
    name = Path(page).name
    outputs = [(f"{name} ({DEMO_MARKER})", demo[0])]
    for number, shown in enumerate(fences_after(page, text, GPU_MARKER), start=1):
        outputs.append((f"{name} ({GPU_MARKER} number {number})", shown))
    return outputs


def compare(what, shown, actual):
    """Raises OutputError, naming the first line that differs, unless the skeletons agree."""
    ours, theirs = skeleton(shown), skeleton(actual)
    for number, (expected, printed) in enumerate(zip(ours, theirs), start=1):
        if expected != printed:
            raise OutputError(f"{what} and the demo's output differ at skeleton line {number}:\n"
                              f"  the page shows: {expected}\n  the demo prints: {printed}\n"
                              "Update the page's shown output (run the lesson and paste it).\n"
                              f"The demo's output was:\n{actual}")
    if len(ours) != len(theirs):
        raise OutputError(f"{what} shows {len(ours)} structural lines, the demo prints "
                          f"{len(theirs)}. Update the page's shown output.\n"
                          f"The demo's output was:\n{actual}")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", action="append", required=True, type=Path,
                        help="a lesson page (README.md, README.ko.md); once per page")
    parser.add_argument("--launch", default="",
                        help="the launcher that starts the demo and its arguments, '|' between "
                             "them (lessons that run as a job: torchrun|--standalone|...)")
    parser.add_argument("demo", help="the lesson's program")
    args = parser.parse_args(argv)
    try:
        # Every page is read before the demo runs: a page without its marked output fails at once.
        pages = []
        for page in args.page:
            try:
                text = page.read_text(encoding="utf-8")
            except OSError as error:
                raise OutputError(f"{page}: cannot be read ({error.strerror})") from error
            pages.append((page, shown_outputs(page, text)))
        command = [word for word in args.launch.split("|") if word] + [args.demo]
        try:
            run = subprocess.run(command, capture_output=True, encoding="utf-8",
                                 errors="replace", timeout=TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired as error:
            raise OutputError(f"{' '.join(command)} ran longer than {TIMEOUT_S} s") from error
        if run.returncode != 0:
            raise OutputError(f"{' '.join(command)} exited with {run.returncode}:\n"
                              f"{run.stdout}\n{run.stderr}")
        for page, outputs in pages:
            for what, shown in outputs:
                compare(what, shown, run.stdout)
            print(f"{page.name}: output matches the demo ({len(skeleton(run.stdout))} structural "
                  f"lines; {len(outputs) - 1} GPU run(s) checked too)")
    except OutputError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
