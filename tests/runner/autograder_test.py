"""Unit tests of Classroom 50's autograder (runner/teacher/graders/classroom50/autograder.py) where
it decides on its own, apart from the runner: the AppArmor profile that lets bwrap make user
namespaces on GitHub's hosted Ubuntu 24.04 runners, and where main() loads it: after the tests
are verified as the class's own, before the graded run, never for a refused submission.
(tests/runner/class_graders.sh grades whole submissions.)

    python3 tests/runner/autograder_test.py <course root>     (CTest: runner/graders/apparmor)

With TORCHLINGS_APPARMOR_PARSER naming an apparmor_parser of AppArmor 4 or later, it also compiles
the profile without loading it; the CTest names one where the machine has it.
"""

import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

ROOT = Path(sys.argv.pop(1) if len(sys.argv) > 1 else ".").resolve()
SPEC = importlib.util.spec_from_file_location(
    "autograder", ROOT / "runner" / "teacher" / "graders" / "classroom50" / "autograder.py")
autograder = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(autograder)  # defines only: main() runs when it is the program

GITHUB_HOSTED = {"RUNNER_ENVIRONMENT": "github-hosted", "GITHUB_ACTIONS": "true"}
# A root-owned program that no one else may change, standing in for /usr/bin/bwrap.
SYSTEM_PROGRAM = os.path.realpath(shutil.which("true") or "/bin/true")


def executable(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


class LetBwrapMakeNamespaces(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.dir)
        (self.dir / "bin").mkdir()
        self.bwrap = self.dir / "bin" / "bwrap"
        self.bwrap.symlink_to(SYSTEM_PROGRAM)
        self.restriction = self.dir / "apparmor_restrict_unprivileged_userns"
        self.restriction.write_text("1\n", encoding="ascii")
        self.calls = self.dir / "sudo.calls"
        self.stdin = self.dir / "sudo.stdin"
        self.sudo = self.fake_sudo(0, "")
        self.environ = dict(GITHUB_HOSTED)
        self.tries = []
        self.starts_after_load = True
        path = mock.patch.dict(os.environ, {"PATH": str(self.dir / "bin")})
        path.start()
        self.addCleanup(path.stop)

    def fake_sudo(self, code: int, stderr: str) -> Path:
        """A sudo that records its arguments and what it was given on stdin, and answers."""
        return executable(self.dir / "sudo", f"""#!/bin/sh
PATH=/usr/bin:/bin
printf '%s\\n' "$*" >>'{self.calls}'
cat >'{self.stdin}'
printf '%s' '{stderr}' >&2
exit {code}
""")

    def starts(self, bwrap):
        """bwrap's probe: fails until a profile was loaded (then as self.starts_after_load)."""
        self.tries.append(bwrap)
        return self.calls.exists() and self.starts_after_load

    def decide(self, euid=1001):
        return autograder.let_bwrap_make_namespaces(
            euid=euid, restriction=str(self.restriction), sudo=str(self.sudo),
            environ=self.environ, starts=self.starts)

    def assert_nothing_loaded(self):
        self.assertFalse(self.calls.exists(), "sudo was run")

    def test_restricted_loads_a_profile_for_bwrap_alone_and_tries_again(self):
        said = self.decide()
        self.assertIn(f"loaded a profile that lets {SYSTEM_PROGRAM}", said)
        self.assertEqual(self.calls.read_text().split(), ["-n", "apparmor_parser", "--replace"])
        self.assertEqual(self.stdin.read_text(),
                         "abi <abi/4.0>,\ninclude <tunables/global>\n"
                         f"profile torchlings-bwrap {SYSTEM_PROGRAM} flags=(unconfined) {{\n"
                         "  userns,\n}\n")
        self.assertEqual(self.tries, [SYSTEM_PROGRAM, SYSTEM_PROGRAM])

    def test_only_on_githubs_hosted_runners(self):
        for environ in ({}, {"GITHUB_ACTIONS": "true", "RUNNER_ENVIRONMENT": "self-hosted"}):
            self.environ = environ
            self.assertIsNone(self.decide())
        self.assert_nothing_loaded()

    def test_not_when_the_sandbox_is_off_on_purpose(self):
        self.environ["TORCHLINGS_SANDBOX"] = "off"
        self.assertIsNone(self.decide())
        self.assert_nothing_loaded()

    def test_root_is_not_restricted(self):
        self.assertIsNone(self.decide(euid=0))
        self.assert_nothing_loaded()

    def test_unrestricted_or_without_apparmor_does_nothing(self):
        self.restriction.write_text("0\n", encoding="ascii")
        self.assertIsNone(self.decide())
        self.restriction.unlink()
        self.assertIsNone(self.decide())
        self.assert_nothing_loaded()

    def test_without_bwrap_the_runner_says_why(self):
        self.bwrap.unlink()
        self.assertIsNone(self.decide())
        self.assert_nothing_loaded()

    def test_a_bwrap_that_already_starts_is_left_alone(self):
        self.calls.write_text("")  # as if a profile were loaded already: the probe passes
        self.assertIsNone(self.decide())
        self.assertEqual(self.calls.read_text(), "")

    def test_a_bwrap_others_may_change_gets_no_profile(self):
        self.bwrap.unlink()
        executable(self.bwrap, "#!/bin/sh\nexit 1\n").chmod(0o777)
        said = self.decide()
        self.assertIn("is not a system file", said)
        self.assertIn("runs without the sandbox", said)
        self.assert_nothing_loaded()

    def test_a_sudo_that_wants_a_password_is_said(self):
        self.sudo = self.fake_sudo(1, "sudo: a password is required")
        said = self.decide()
        self.assertIn("(sudo: a password is required)", said)
        self.assertIn("runs without the sandbox", said)

    def test_a_failure_without_a_word_says_its_exit_code(self):
        self.sudo = self.fake_sudo(3, "")
        self.assertIn("(exit code 3)", self.decide())

    def test_no_sudo_at_all_is_said(self):
        self.sudo = self.dir / "no-such-sudo"
        self.assertIn("runs without the sandbox", self.decide())

    def test_a_profile_that_does_not_help_is_said(self):
        self.starts_after_load = False
        self.assertIn("bwrap still cannot start with it", self.decide())

    @unittest.skipUnless(os.environ.get("TORCHLINGS_APPARMOR_PARSER"),
                         "no apparmor_parser of AppArmor 4 named (TORCHLINGS_APPARMOR_PARSER)")
    def test_apparmor_parser_compiles_the_profile(self):
        profile = autograder.BWRAP_PROFILE.format(bwrap="/usr/bin/bwrap")
        compiled = subprocess.run(
            [os.environ["TORCHLINGS_APPARMOR_PARSER"], "--skip-kernel-load", "--skip-cache"],
            input=profile, capture_output=True, text=True, check=False)
        self.assertEqual(compiled.returncode, 0, compiled.stderr)


class MainOrder(unittest.TestCase):
    """main(): the profile is loaded only after the tests are verified as the class's own, and
    before the graded run, whose test programs it is for; a refused submission never reaches it."""

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.dir)
        cwd = os.getcwd()
        os.chdir(self.dir)
        self.addCleanup(os.chdir, cwd)
        self.steps = []
        self.verify_code = 0
        environ = mock.patch.dict(os.environ, {"TORCHLINGS_COMMAND": "torchlings"})
        environ.start()
        self.addCleanup(environ.stop)
        os.environ.pop("TORCHLINGS_CLASS_COURSE", None)
        for name, fake in (("edited_files", lambda: []),
                           ("let_bwrap_make_namespaces", self.load_profile)):
            patch = mock.patch.object(autograder, name, fake)
            patch.start()
            self.addCleanup(patch.stop)
        run = mock.patch.object(autograder.subprocess, "run", self.run_command)
        run.start()
        self.addCleanup(run.stop)

    def load_profile(self):
        self.steps.append("load the profile")
        return "autograder: loaded"

    def run_command(self, argv, **kwargs):
        self.steps.append(" ".join(argv[1:3]))
        if "--all" in argv:
            Path(argv[-1]).write_text("{}", encoding="utf-8")
            return subprocess.CompletedProcess(argv, 0)
        return subprocess.CompletedProcess(argv, self.verify_code)

    def test_the_profile_comes_between_verifying_and_grading(self):
        with mock.patch("sys.stdout"):
            autograder.main()
        self.assertEqual(self.steps,
                         ["check --verify-tests", "load the profile", "check --all"])

    def test_a_refused_submission_loads_nothing(self):
        for code in (autograder.TESTS_EDITED, 1):
            with self.subTest(code=code):
                self.steps = []
                self.verify_code = code
                with mock.patch("sys.stderr"), self.assertRaises(SystemExit):
                    autograder.main()
                self.assertEqual(self.steps, ["check --verify-tests"])


if __name__ == "__main__":
    unittest.main()
