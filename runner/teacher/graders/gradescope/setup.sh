#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu), with the
# autograder zip unpacked in /autograder/source. It is the course's own set-up (the first part of
# the README's first command), a build of the runner, and a build of every exercise's test
# program from its stub (their verdicts are not kept), so that grading a submission rebuilds only
# the files it changed. Written by `./torchlings export --learner`.
set -euo pipefail
cd "${TORCHLINGS_AUTOGRADER_ROOT:-/autograder}/source"
chmod +x torchlings run_autograder setup.sh
./torchlings setup
./torchlings list > /dev/null
./torchlings check --all > /dev/null 2>&1 || true   # the stubs fail their tests, as they should
rm -rf .torchlings                                   # no learner's progress in the image
