#!/bin/sh
# Plot timing JSON (lesson demos' --json, or Google Benchmark's --benchmark_format=json) with
# scripts/plot/plot_timings.py. matplotlib lives in a venv in the course's cache folder, so a second run
# downloads nothing. Not part of `./torchlings test`: charts are made by hand from real runs.
#   scripts/plot/plot_timings.sh cpu.json [gpu.json ...] -o chart.png [--title TEXT]
set -eu
cd "$(dirname -- "$0")/../.."
. scripts/setup/cache_dir.sh   # sets CACHE_DIR, the course's cache folder
VENV="$CACHE_DIR/plot-venv"
if ! "$VENV/bin/python" -c 'import matplotlib' >/dev/null 2>&1; then
  echo "plot_timings: installing matplotlib into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "matplotlib>=3.7,<4"
fi
exec "$VENV/bin/python" scripts/plot/plot_timings.py "$@"
