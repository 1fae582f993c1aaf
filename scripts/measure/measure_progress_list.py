#!/usr/bin/env python3
"""Measures how fast `progress`, `list` and `list --json` answer, through the `./torchlings`
wrapper (which checks the set-up and that the runner is built) and through the runner binary
alone (`list --json` is what the site's staging and the translation check ask the runner for).

None of them builds anything: each reads the lessons' titles and exercises/*/info.md, the
progress file, and hashes the learners' files. The course's target is under 0.5 s (median) on a 2-core machine.

    python3 scripts/measure/measure_progress_list.py [--runs 21] [--build-dir build/dev]

Run `./torchlings list` once first, so that the build folder exists.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def time_command(argv, runs):
    """Seconds per run of argv (output discarded); raises if it fails."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        times.append(time.perf_counter() - start)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "dev"))
    args = parser.parse_args()
    runner = os.path.join(args.build_dir, "bin", "torchlings-runner")
    if not os.access(runner, os.X_OK):
        sys.exit(f"{runner} does not exist: run ./torchlings list once first")

    print(f"machine: {os.cpu_count()} cores; {args.runs} runs each; seconds")
    print(f"{'command':34} {'median':>8} {'min':>8} {'max':>8}")
    for verb in (["progress"], ["list"], ["list", "--json"]):
        name = " ".join(verb)
        for label, argv in ((f"./torchlings {name}", ["./torchlings", *verb]),
                            (f"torchlings-runner {name}",
                             [runner, "--root", ROOT, "--build-dir", args.build_dir, *verb])):
            times = time_command(argv, args.runs)
            print(f"{label:34} {statistics.median(times):8.3f} {min(times):8.3f} "
                  f"{max(times):8.3f}")


if __name__ == "__main__":
    main()
