#!/usr/bin/env python3
"""Turn timing JSON into a chart: time against size, one panel per operation, one line per device.

Reads either format, and several files at once (a CPU run and a GPU run, say):
  * the lesson demos' JSON (`lesson_08 --json FILE`): {"measurements": [{"op", "size", "device",
    "median_ms", "includes_copies", ...}], "device", "cpu", "gpu", "torch", ...};
  * Google Benchmark's (`bench_x --benchmark_format=json --benchmark_out=FILE`): {"context",
    "benchmarks": [{"name": "BM_op/cuda/1024", "real_time", "time_unit", "run_type", ...}]}.
    The name's numeric parts give the size (the last one), the others name the op (the first)
    and the series (the rest). With repetitions, the "median" aggregate is used.

Usage: scripts/plot/plot_timings.sh RESULT.json [MORE.json ...] -o chart.png [--title TEXT]
(the .sh wrapper installs matplotlib into a venv in the course's cache folder first).
"""
import argparse
import json
import math
import statistics
import sys
from collections import defaultdict

UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
# Benchmark name parts that are options, not part of what is measured.
OPTION_PREFIXES = ("real_time", "manual_time", "process_time", "min_time:", "min_warmup_time:",
                   "repeats:", "iterations:", "threads:")


def from_lesson(data, path):
    """(op, series, size, ms) rows from a lesson demo's JSON."""
    rows = []
    for m in data["measurements"]:
        series = m["device"] + (" with copies" if m.get("includes_copies") else "")
        rows.append((m["op"], series, int(m["size"]), float(m["median_ms"])))
    return rows


def from_benchmark(data, path):
    """(op, series, size, ms) rows from Google Benchmark's JSON."""
    runs = defaultdict(list)  # run_name -> its entries (iterations and aggregates)
    for b in data["benchmarks"]:
        if not b.get("error_occurred"):
            runs[b.get("run_name", b["name"])].append(b)
    rows = []
    for name, entries in runs.items():
        parts = [p for p in name.split("/") if not p.startswith(OPTION_PREFIXES)]
        sizes = [p for p in parts if p.isdigit()]
        labels = [p for p in parts if not p.isdigit()]
        if not sizes or not labels:
            print(f"plot_timings: {path}: skipping {name!r} (no numeric size argument)",
                  file=sys.stderr)
            continue
        # With --benchmark_repetitions: the median aggregate, else the mean; else the median of
        # the iterations reported.
        chosen = [b for b in entries if b.get("aggregate_name") == "median"] or \
                 [b for b in entries if b.get("aggregate_name") == "mean"] or \
                 [b for b in entries if b.get("run_type", "iteration") == "iteration"]
        if not chosen:
            continue
        times = []
        for b in chosen:
            unit = b.get("time_unit", "ns")
            if unit not in UNIT_MS:
                raise ValueError(f"{path}: unknown time_unit {unit!r} in {name!r}")
            times.append(float(b["real_time"]) * UNIT_MS[unit])
        series = "/".join(labels[1:]) or "time"
        rows.append((labels[0], series, int(sizes[-1]), statistics.median(times)))
    return rows


def load(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if isinstance(data, dict) and "measurements" in data:
        return from_lesson(data, path), describe_lesson(data)
    if isinstance(data, dict) and "benchmarks" in data:
        return from_benchmark(data, path), describe_benchmark(data)
    raise ValueError(f"{path}: expected a lesson demo's JSON (a 'measurements' list) or "
                     "Google Benchmark's (a 'benchmarks' list)")


def describe_lesson(data):
    machine = data.get("cpu", "unknown CPU")
    if data.get("gpu", "none") != "none" and str(data.get("device", "")).startswith("cuda"):
        machine += ", " + data["gpu"]
    return f"{machine}; LibTorch {data.get('torch', '?')}"


def describe_benchmark(data):
    context = data.get("context", {})
    return f"{context.get('host_name', 'unknown host')}, {context.get('num_cpus', '?')} CPUs"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+", help="JSON files (lesson demo or Google Benchmark)")
    parser.add_argument("-o", "--output", required=True, help="the image to write (.png, .svg)")
    parser.add_argument("--title", default="Time by size (median; lower is better)")
    args = parser.parse_args(argv)

    import matplotlib  # imported here so that --help works without it

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    panels = defaultdict(lambda: defaultdict(dict))  # op -> series -> size -> ms
    sources = []
    for path in args.inputs:
        rows, source = load(path)
        sources.append(source)
        for op, series, size, ms in rows:
            panels[op][series][size] = ms
    # A panel needs a line: ops measured at a single size (a one-off timing) are left out.
    ops = [op for op in panels if any(len(s) >= 2 for s in panels[op].values())]
    if not ops:
        print("plot_timings: no operation was measured at two or more sizes", file=sys.stderr)
        return 1
    columns = min(3, len(ops))
    rows_count = math.ceil(len(ops) / columns)
    fig, axes = plt.subplots(rows_count, columns, figsize=(4.6 * columns, 3.8 * rows_count),
                             squeeze=False)
    for ax, op in zip(axes.flat, ops):
        for series, points in sorted(panels[op].items()):
            sizes = sorted(points)
            ax.plot(sizes, [points[s] for s in sizes], marker="o", label=series,
                    linestyle="--" if "copies" in series else "-")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(op)
        ax.set_xlabel("size")
        ax.set_ylabel("ms")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small")
    for ax in list(axes.flat)[len(ops):]:
        ax.set_visible(False)
    fig.suptitle(args.title + "\n" + "; ".join(dict.fromkeys(sources)), fontsize="medium")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"plot_timings: wrote {args.output} ({len(ops)} panels)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
