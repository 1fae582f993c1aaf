#!/bin/sh
# CI: execute notebooks/torchlings_colab.ipynb end to end against this checkout, on whatever this
# machine has (the CPU in CI), and check its outputs (scripts/ci/run_notebook.py says which).
# Run it after `./torchlings test`: with CI=true the notebook's ./torchlings calls reuse build/ci.
# nbclient and ipykernel live in a venv in the course's cache folder, so a second run downloads
# nothing. Exit status: 0 all checks passed, 1 a check failed, 2 the notebook could not be run.
set -eu
cd "$(dirname -- "$0")/../.."
export CI="${CI:-true}"
. scripts/setup/cache_dir.sh   # sets CACHE_DIR, the course's cache folder
VENV="$CACHE_DIR/notebook-venv"
if ! "$VENV/bin/python" -c 'import nbclient, ipykernel' >/dev/null 2>&1; then
  echo "ci_notebook: installing nbclient and ipykernel into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    "nbclient>=0.10,<0.12" "ipykernel>=6.29,<8"
fi
exec "$VENV/bin/python" scripts/ci/run_notebook.py "$@"
