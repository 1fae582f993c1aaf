#!/usr/bin/env python3
"""Execute the Colab notebook end to end against a checkout of the course, then check its outputs.

    scripts/ci/ci_notebook.sh                    # what CI runs (sets up the venv, then this script)
    python scripts/ci/run_notebook.py [--root DIR] [--output FILE] [--full-suite]

The notebook is run as a learner would run it, on whatever this machine has (CI: the CPU), with
its parameters set papermill-style: TORCHLINGS_ROOT is the checkout (so it clones nothing) and
RUN_FULL_SUITE is False (CI has just run `./torchlings test`; --full-suite keeps it). The
`./torchlings` calls inherit this process's environment, so with CI=true they reuse build/ci.

The notebook edits an exercise file and records progress. Every file under exercises/ and
.torchlings/state.json are put back byte for byte afterwards, whatever happened, so a learner's
work in the checkout is never lost (the notebook's own backup copies stay in .torchlings/backups/).

Checks, by cell tag: no cell raised an error; the runtime was named (GPU or CPU); the checkout was
used, nothing cloned; lesson 01's report appeared; the untouched stub and the first attempt
failed by test (exit code 1, fewer cases passed than run); the fix passed them all (exit code 0);
hint and progress printed something. The first of these expects count_devices as CI has it: the
untouched stub (a checkout where it is already solved fails that check, and keeps its file). Exit status 0 when all hold, 1 when one does not (each
failure is named, with the end of that cell's output), 2 when the notebook could not be run.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import sys
import time

try:
    import nbformat
    from nbclient import NotebookClient
except ImportError:
    sys.exit("run_notebook.py needs nbclient and ipykernel: run scripts/ci/ci_notebook.sh, which "
             "installs them into notebook-venv/ in the course's cache folder "
             "(sh scripts/setup/cache_dir.sh prints where)")

ROOT = pathlib.Path(__file__).resolve().parents[2]
VERDICT = re.compile(r"count_devices: (\d+)/(\d+) tests passed")


def parse_args() -> argparse.Namespace:
    preset = os.environ.get("TORCHLINGS_PRESET") or ("ci" if os.environ.get("CI") == "true" else "dev")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=pathlib.Path, default=ROOT,
                        help="the checkout the notebook uses (default: this one)")
    parser.add_argument("--notebook", type=pathlib.Path,
                        default=ROOT / "notebooks" / "torchlings_colab.ipynb")
    parser.add_argument("--output", type=pathlib.Path,
                        default=ROOT / "build" / preset / "notebook" / "torchlings_colab.executed.ipynb",
                        help="where the executed notebook is written")
    parser.add_argument("--cell-timeout", type=int, default=1800,
                        help="seconds one cell may run (the first build of a fresh checkout is slow)")
    parser.add_argument("--full-suite", action="store_true",
                        help="also run the notebook's `./torchlings test` cell")
    return parser.parse_args()


def inject_parameters(nb, values: dict) -> None:
    """Adds a cell after the one tagged `parameters`, as papermill does."""
    for index, cell in enumerate(nb.cells):
        if "parameters" in cell.metadata.get("tags", []):
            break
    else:
        raise SystemExit("run_notebook.py: the notebook has no cell tagged 'parameters'")
    source = "# Parameters set by scripts/ci/run_notebook.py\n" + "".join(
        f"{name} = {value!r}\n" for name, value in values.items())
    injected = nbformat.v4.new_code_cell(source, metadata={"tags": ["injected-parameters"]})
    nb.cells.insert(index + 1, injected)


class LearnerFiles:
    """Every file under exercises/, and the progress file, as they were before the run."""

    def __init__(self, root: pathlib.Path):
        self.root = root
        paths = [p for p in (root / "exercises").rglob("*") if p.is_file()]
        paths.append(root / ".torchlings" / "state.json")
        self.saved = {p: p.read_bytes() if p.is_file() else None for p in paths}

    def restore(self) -> list[str]:
        restored = []
        for path, content in self.saved.items():
            now = path.read_bytes() if path.is_file() else None
            if now == content:
                continue
            if content is None:
                path.unlink()
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
            restored.append(str(path.relative_to(self.root)))
        return restored


def cell_text(cell) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            parts.append(output.text)
        elif output.output_type in ("execute_result", "display_data"):
            parts.append(output.get("data", {}).get("text/plain", ""))
        elif output.output_type == "error":
            parts.append(f"{output.ename}: {output.evalue}\n")
    return "".join(parts)


def check_outputs(nb, root: pathlib.Path) -> list[str]:
    """The failures, each one sentence with the end of the cell's output."""
    by_tag = {}
    for index, cell in enumerate(nb.cells):
        for tag in cell.metadata.get("tags", []):
            by_tag[tag] = (index, cell)
    failures = []

    def fail(tag: str, what: str) -> None:
        index, cell = by_tag.get(tag, (None, None))
        tail = "\n".join(cell_text(cell).rstrip().splitlines()[-15:]) if cell else "(no such cell)"
        where = f"cell {index} [{tag}]" if index is not None else f"[{tag}]"
        failures.append(f"{where}: {what}\n    " + tail.replace("\n", "\n    "))

    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                tags = ",".join(cell.metadata.get("tags", [])) or "untagged"
                failures.append(f"cell {index} [{tags}] raised {output.ename}: {output.evalue}")

    def text(tag: str) -> str:
        return cell_text(by_tag[tag][1]) if tag in by_tag else ""

    if not re.search(r"^(GPU runtime|CPU runtime): ", text("runtime-check"), re.M):
        fail("runtime-check", "expected it to say whether this is a GPU or a CPU runtime")
    if f"Using the course at {root.resolve()} (nothing cloned)." not in text("get-course"):
        fail("get-course", f"expected it to use the checkout {root} and clone nothing")
    lesson = text("lesson-01")
    if not ("torchlings lesson 01: availability checks" in lesson and "== Device choice ==" in lesson
            and re.search(r"^Chosen:\s+\S", lesson, re.M)):
        fail("lesson-01", "expected lesson 01's report (its title, the device choice section and "
                          "the chosen device)")

    def expect_verdict(tag: str, passing: bool) -> None:
        output = text(tag)
        verdict = VERDICT.search(output)
        code = re.search(r"exit code: (\d+)", output)
        want = "0" if passing else "1"
        if not verdict or not code:
            fail(tag, "expected a verdict 'count_devices: N/M tests passed' and the exit code")
        elif code.group(1) != want:
            fail(tag, f"expected exit code {want} ({'passed' if passing else 'a test failed'}), "
                      f"got {code.group(1)}")
        elif passing != (verdict.group(1) == verdict.group(2)):
            fail(tag, f"expected {'every' if passing else 'not every'} case to pass, got "
                      f"{verdict.group(0)}")

    expect_verdict("check-stub", passing=False)
    expect_verdict("check-attempt", passing=False)
    expect_verdict("check-fixed", passing=True)
    if not text("hint").strip():
        fail("hint", "expected a hint")
    if "count_devices" not in text("progress"):
        fail("progress", "expected progress and the solution of count_devices")
    return failures


def main() -> int:
    args = parse_args()
    root = args.root.resolve()
    if not (root / "torchlings").is_file():
        print(f"run_notebook.py: {root} is not a checkout of the course", file=sys.stderr)
        return 2
    nb = nbformat.read(args.notebook, as_version=4)
    inject_parameters(nb, {"TORCHLINGS_ROOT": str(root), "TORCHLINGS_REPO": "",
                           "RUN_FULL_SUITE": args.full_suite})
    print(f"run_notebook: executing {args.notebook.name} against {root} "
          f"(CI={os.environ.get('CI', '')!s}, TORCHLINGS_PRESET={os.environ.get('TORCHLINGS_PRESET', '')!s})",
          flush=True)

    learner_files = LearnerFiles(root)
    started = time.monotonic()
    try:
        client = NotebookClient(nb, timeout=args.cell_timeout, kernel_name="python3",
                                allow_errors=True,
                                # A cell's last output may reach the client after its reply; on
                                # a loaded machine later than nbclient's default wait of 4 s,
                                # after which it drops that output without an error. Wait
                                # longer, and fail loudly if even that is not enough.
                                iopub_timeout=120, raise_on_iopub_timeout=True,
                                resources={"metadata": {"path": str(root / "notebooks")}})
        client.execute()
    except Exception as error:
        # A cell ran out of time, the kernel died, or the run was stopped (nbclient turns SIGTERM
        # into a kernel shutdown and an error here); `finally` has put the learner's files back.
        print(f"run_notebook: the notebook could not be run to the end: "
              f"{type(error).__name__}: {error}", file=sys.stderr)
        return 2
    finally:
        elapsed = time.monotonic() - started
        restored = learner_files.restore()
        if restored:
            print("run_notebook: put back as they were: " + ", ".join(restored), flush=True)
        args.output.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, args.output)
        print(f"run_notebook: executed notebook written to {args.output}", flush=True)

    failures = check_outputs(nb, root)
    if failures:
        print(f"run_notebook: {len(failures)} check(s) of the notebook's outputs failed "
              f"({elapsed:.0f} s):", file=sys.stderr)
        for failure in failures:
            print("  - " + failure, file=sys.stderr)
        return 1
    print(f"run_notebook: all checks passed; the notebook ran in {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
