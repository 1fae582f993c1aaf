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
Between the two, on GitHub's hosted runners, where AppArmor lets only programs it names create
user namespaces (Ubuntu 23.10 and later: the ubuntu-24.04 runner) and bwrap cannot start, a profile
that lets bwrap alone do so is loaded with sudo, so that the test programs run in the runner's
sandbox (bubblewrap) there too.
TORCHLINGS_COMMAND replaces ./torchlings (a test runs the runner binary itself).
"""

import filecmp
import hashlib
import json
import os
import re
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


TESTS_EDITED = 5  # the runner's exit code for files that differ from the class's copy
# Where the kernel says whether AppArmor restricts unprivileged user namespaces (1: it does).
USERNS_RESTRICTION = "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"
# A profile for bwrap alone, the form of Ubuntu's own for such programs: unconfined, as before the
# restriction, and allowed user namespaces. It lasts until the machine restarts.
BWRAP_PROFILE = """abi <abi/4.0>,
include <tunables/global>
profile torchlings-bwrap {bwrap} flags=(unconfined) {{
  userns,
}}
"""


def bwrap_starts(bwrap):
    """Whether bwrap can make its namespaces here (what the runner's own probe needs first)."""
    try:
        return subprocess.run([bwrap, "--ro-bind", "/", "/", "--", "true"],
                              capture_output=True, check=False, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def let_bwrap_make_namespaces(euid=None, restriction=USERNS_RESTRICTION, sudo="sudo",
                              environ=None, starts=bwrap_starts):
    """Ubuntu 23.10 and later let an unprivileged program make a user namespace only when an
    AppArmor profile allows it, and Ubuntu 24.04 has none for bwrap: the runner's sandbox cannot
    start there ("setting up uid map: Permission denied") and the grade would run without it. On
    GitHub's hosted runners alone (a machine that lives for one job, whose sudo needs no
    password), not as root (root is not restricted), and only while bwrap cannot start, load a
    profile that allows bwrap alone, then try bwrap again. Returns what was done, in one line, or
    None where nothing was needed or it is not this machine's to change."""
    environ = os.environ if environ is None else environ
    if (environ.get("RUNNER_ENVIRONMENT") != "github-hosted"
            or environ.get("TORCHLINGS_SANDBOX") == "off"
            or (os.geteuid() if euid is None else euid) == 0):
        return None
    try:
        with open(restriction, encoding="ascii") as file:
            if file.read().strip() != "1":
                return None
    except OSError:
        return None  # no AppArmor, or a kernel without the restriction
    found = shutil.which("bwrap")
    if found is None:
        return None  # the runner says that it grades without a sandbox, and why
    bwrap = os.path.realpath(found)
    if starts(bwrap):
        return None  # a profile already allows it (Ubuntu 24.10 and later ship one)
    info = os.stat(bwrap)
    if not re.fullmatch(r"[A-Za-z0-9/._+-]+", bwrap) or info.st_uid != 0 or info.st_mode & 0o022:
        return (f"autograder: AppArmor keeps bwrap from making user namespaces here, and {bwrap} "
                "is not a system file that root alone may change, so no profile is loaded for "
                "it: the grade runs without the sandbox")
    failed = ("autograder: AppArmor keeps bwrap from making user namespaces here, and its "
              "profile could not be loaded ({}): the grade runs without the sandbox")
    try:
        loaded = subprocess.run([sudo, "-n", "apparmor_parser", "--replace"],
                                input=BWRAP_PROFILE.format(bwrap=bwrap),
                                capture_output=True, text=True, check=False, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return failed.format(error)
    if loaded.returncode != 0:
        return failed.format(
            (loaded.stderr.strip().splitlines() or [f"exit code {loaded.returncode}"])[-1])
    if not starts(bwrap):
        return failed.format("bwrap still cannot start with it")
    return ("autograder: AppArmor lets only the programs it names make user namespaces here: "
            f"loaded a profile that lets {bwrap} (the runner's sandbox) make them")


def main():
    if os.path.exists("result.json"):
        os.remove("result.json")
    edited = edited_files()
    if edited:
        print("autograder: not graded: these files differ from the class's:\n  " +
              "\n  ".join(edited) + "\nOnly the exercise files under exercises/ are the "
              "learner's to change; restore the others and submit again.", file=sys.stderr)
        sys.exit(1)
    result = os.path.abspath("result.json")
    course = os.environ.get("TORCHLINGS_CLASS_COURSE", "")
    if course:
        try:
            manifest = os.path.join(course, "torchlings-manifest.json")
            same_export = sha256(manifest) == MANIFEST_SHA256
        except OSError:
            same_export = False
        if not same_export:
            print(f"autograder: not graded: the class image's course ({course}) is not of the "
                  "export this autograder belongs to (its torchlings-manifest.json differs). The "
                  "teacher must build the image from the same export.", file=sys.stderr)
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
    verified = subprocess.run(torchlings + ["check", "--verify-tests"], env=env, cwd=course,
                              check=False)
    if verified.returncode == TESTS_EDITED:
        print("autograder: not graded: files other than the exercise files differ from the class's "
              "(listed above); restore them and submit again.", file=sys.stderr)
        sys.exit(1)
    if verified.returncode != 0:
        print(f"autograder: not graded: the grader could not check this submission (exit code "
              f"{verified.returncode}: a problem of the grading machine, not of your files; the "
              "lines above say what). Tell your teacher, who can read this log.", file=sys.stderr)
        sys.exit(1)
    said = let_bwrap_make_namespaces()
    if said:
        print(said, flush=True)
    subprocess.run(torchlings + ["check", "--all", "--classroom50", result], env=env, cwd=course,
                   check=False)
    if not os.path.isfile(result):
        print("autograder: check wrote no result.json (see above)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
