#!/usr/bin/env python3
"""Classroom 50 autograder of a torchlings class, written by `./torchlings export --learner`.

Install it as <classroom>/autograders/<assignment>/autograder.py in your classroom50 repository.
Classroom 50's runner runs it in the learner's checkout with CLASSROOM, ASSIGNMENT,
SUBMISSION_TAG, COMMIT_URL, RELEASE_URL and REVIEW_URL set. Two commands grade:
  1. ./torchlings check --verify-tests   the course's tests must be the class's own (the manifest
                                         digest below is pinned here, out of the learner's reach)
  2. ./torchlings check --all --classroom50 result.json   one point per test case
Nothing of the checkout runs before its files are known to be the class's own: the manifest's
digest, then each listed file's (./torchlings and the build files included), are checked here
first. Edited files: exit 1, which the runner records as an error, with the files in the log;
a grading machine that cannot check (no compiler, say) is told apart from edited files.
In the class's image (graders/gradescope/Dockerfile, named as the runtime's container), where
TORCHLINGS_CLASS_COURSE names the image's copy of the class with everything already built, only
the learner's exercise files go from the checkout into that copy, and the two commands run there:
a submission then rebuilds only the files it changed.
TORCHLINGS_COMMAND replaces ./torchlings (a test runs the runner binary itself).
"""

import filecmp
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys

MANIFEST_SHA256 = "{{manifest_sha256}}"
LEARNER_FILES = """
{{learner_files}}""".split()


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def edited_files():
    """The class's files that differ in this checkout (all of them when the manifest does)."""
    try:
        if sha256("torchlings-manifest.json") != MANIFEST_SHA256:
            return ["torchlings-manifest.json"]
        with open("torchlings-manifest.json", encoding="utf-8") as file:
            listed = json.load(file)["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return ["torchlings-manifest.json"]
    edited = []
    for path, expected in sorted(listed.items()):
        try:
            if sha256(path) != expected:
                edited.append(path)
        except OSError:
            edited.append(path + " (missing)")
    return edited


if os.path.exists("result.json"):
    os.remove("result.json")
edited = edited_files()
if edited:
    print("autograder: not graded: these files differ from the class's:\n  " +
          "\n  ".join(edited) + "\nOnly the exercise files under exercises/ are the learner's to "
          "change; restore the others and submit again.", file=sys.stderr)
    sys.exit(1)
result = os.path.abspath("result.json")
course = os.environ.get("TORCHLINGS_CLASS_COURSE", "")
if course:
    try:
        same_export = sha256(os.path.join(course, "torchlings-manifest.json")) == MANIFEST_SHA256
    except OSError:
        same_export = False
    if not same_export:
        print(f"autograder: not graded: the class image's course ({course}) is not of the export "
              "this autograder belongs to (its torchlings-manifest.json differs). The teacher "
              "must build the image from the same export.", file=sys.stderr)
        sys.exit(1)
    for path in LEARNER_FILES:  # a file the image already has is left alone: not rebuilt
        target = os.path.join(course, path)
        if os.path.isfile(path) and not (os.path.isfile(target) and
                                         filecmp.cmp(path, target, shallow=False)):
            shutil.copyfile(path, target)
    print(f"autograder: grading in the class image's copy of the course ({course})")
else:
    course = "."
torchlings = shlex.split(os.environ.get("TORCHLINGS_COMMAND", "./torchlings"))
env = dict(os.environ, TORCHLINGS_MANIFEST_SHA256=MANIFEST_SHA256)
TESTS_EDITED = 5  # the runner's exit code for files that differ from the class's copy
verified = subprocess.run(torchlings + ["check", "--verify-tests"], env=env, cwd=course,
                          check=False)
if verified.returncode == TESTS_EDITED:
    print("autograder: not graded: files other than the exercise files differ from the class's "
          "(listed above); restore them and submit again.", file=sys.stderr)
    sys.exit(1)
if verified.returncode != 0:
    print(f"autograder: not graded: the grader could not check this submission (exit code "
          f"{verified.returncode}: a problem of the grading machine, not of your files; the lines "
          "above say what). Tell your teacher, who can read this log.", file=sys.stderr)
    sys.exit(1)
subprocess.run(torchlings + ["check", "--all", "--classroom50", result], env=env, cwd=course,
               check=False)
if not os.path.isfile(result):
    print("autograder: check wrote no result.json (see above)", file=sys.stderr)
    sys.exit(1)
