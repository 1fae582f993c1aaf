#!/usr/bin/env python3
"""Draws a Chrome trace that lesson 08 writes (`--trace FILE`) as a timeline picture:

    python3 scripts/plot/plot_trace.py trace.json -o trace.png [--title TEXT]

The picture has the rows that https://ui.perfetto.dev shows for the same file, for a page that
cannot be interactive: one row per nesting level of each thread, your RECORD_USER_SCOPE ranges
("training step") on top, every operator as a bar inside its caller, times from the first event.
Bars wide enough for it carry their name. Any Python with matplotlib runs it (the venv that
scripts/plot/plot_timings.sh makes has it). Not part of `./torchlings test`: pictures are made by hand
from real runs.
"""
import argparse
import json
import sys
from pathlib import Path


def complete_events(path):
    """The trace's complete events ("ph": "X"), each with the nesting level on its thread."""
    data = json.loads(Path(path).read_text())
    events = data["traceEvents"] if isinstance(data, dict) else data
    spans = [e for e in events if e.get("ph") == "X" and "dur" in e and isinstance(e.get("tid"), int)]
    if not spans:
        sys.exit(f"plot_trace: {path} has no complete events (ph 'X'); is it a --trace file?")
    spans.sort(key=lambda e: (e["tid"], e["ts"], -e["dur"]))
    open_ends = {}  # thread -> end times of the spans that contain the current one
    for e in spans:
        stack = open_ends.setdefault(e["tid"], [])
        while stack and stack[-1] <= e["ts"]:
            stack.pop()
        e["depth"] = len(stack)
        stack.append(e["ts"] + e["dur"])
    return spans


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    spans = complete_events(args.trace)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    start = min(e["ts"] for e in spans)
    threads = sorted({e["tid"] for e in spans})
    rows = {}  # (thread, depth) -> row, top to bottom
    for tid in threads:
        for depth in range(max(e["depth"] for e in spans if e["tid"] == tid) + 1):
            rows[(tid, depth)] = len(rows)
    colours = {"user_annotation": "#4c72b0", "cpu_op": "#dd8452"}
    fig, ax = plt.subplots(figsize=(12, 0.32 * len(rows) + 1.2), dpi=120)
    width_ms = max((e["ts"] + e["dur"] - start) for e in spans) / 1000
    pixels_per_ms = 0.88 * fig.get_figwidth() * fig.dpi / width_ms  # the axes: ~88 % of the width
    for e in spans:
        y = rows[(e["tid"], e["depth"])]
        left, width = (e["ts"] - start) / 1000, e["dur"] / 1000
        ax.barh(y, width, left=left, height=0.8, color=colours.get(e.get("cat"), "#8c8c8c"),
                edgecolor="white", linewidth=0.3)
        # A label only where it fits: about 4.5 pixels a character at this size.
        if width * pixels_per_ms >= 4.5 * len(e["name"]) + 6:
            ax.text(left + width / 2, y, e["name"], ha="center", va="center", fontsize=6,
                    clip_on=True)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"thread {tid} · level {depth}" if len(threads) > 1 else f"level {depth}"
                        for tid, depth in rows])
    ax.invert_yaxis()
    ax.set_xlabel("ms from the first event")
    ax.set_xlim(0, width_ms)
    if args.title:
        ax.set_title(args.title, fontsize=10)
    fig.tight_layout()
    fig.savefig(args.output)
    print(f"plot_trace: {len(spans)} events on {len(rows)} rows -> {args.output}")


if __name__ == "__main__":
    main()
