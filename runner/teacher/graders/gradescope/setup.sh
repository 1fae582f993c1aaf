#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu), with the
# autograder zip unpacked in /autograder/source. It is the course's own set-up (the first part of
# the README's first command) and a build of the runner, so that grading a submission starts at
# once. Written by `./torchlings export --learner`.
set -euo pipefail
cd "${TORCHLINGS_AUTOGRADER_ROOT:-/autograder}/source"
chmod +x torchlings run_autograder setup.sh
./torchlings setup
./torchlings list > /dev/null
