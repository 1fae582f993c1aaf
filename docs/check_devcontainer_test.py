#!/usr/bin/env python3
"""Test of docs/check_devcontainer.py (a CTest, label `docs`): the real course passes; on scratch
courses, a devcontainer.json whose postCreateCommand is the README's first command passes, with
comments that hold a quote and strings that hold a //; a README without a first command, a missing
devcontainer.json, one without postCreateCommand, one whose postCreateCommand is an array, one
with another command and one that is not JSON are each refused with a message naming the file and
what to do.

    python3 docs/check_devcontainer_test.py
"""
import io
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.dont_write_bytecode = True  # importing the check leaves no __pycache__ in the course
import check_devcontainer as check  # noqa: E402

COURSE = Path(__file__).resolve().parent.parent

README = """# A course

```sh
./torchlings run 01     # sets everything up, then runs lesson 01
./torchlings test
```
"""

CONFIG = """// The course's "devcontainer": see https://containers.dev/ (a // in a comment).
{
  "name": "scratch", // it's a comment with a quote: "
  /* a block comment, "quoted" too */
  "image": "https://example.com//image", // a string with // in it stays
  "remoteEnv": {"SLASHES": "a\\\\//b \\"// not a comment\\""},
  "postCreateCommand": "./torchlings run 01"
}
"""


class Comments(unittest.TestCase):
    def test_strings_keep_their_slashes_and_comments_go(self):
        text = check.without_comments(CONFIG)
        self.assertIn('"https://example.com//image"', text)
        self.assertIn('"a\\\\//b \\"// not a comment\\""', text)
        self.assertNotIn("it's a comment", text)
        self.assertNotIn("block comment", text)
        self.assertNotIn("containers.dev", text)


class Check(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)
        (self.root / "README.md").write_text(README, encoding="utf-8")
        (self.root / ".devcontainer").mkdir()
        self.config = self.root / ".devcontainer" / "devcontainer.json"
        self.config.write_text(CONFIG, encoding="utf-8")

    def tearDown(self):
        self.folder.cleanup()

    def run_check(self, root=None):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = check.main(["--root", str(root or self.root)])
        return code, out.getvalue(), err.getvalue()

    def refused(self, config=None, readme=None):
        if config is not None:
            self.config.write_text(config, encoding="utf-8")
        if readme is not None:
            (self.root / "README.md").write_text(readme, encoding="utf-8")
        code, out, err = self.run_check()
        self.assertEqual(code, 1, out)
        return err

    def test_the_real_course_passes(self):
        code, out, err = self.run_check(COURSE)
        self.assertEqual(code, 0, err)
        self.assertIn("devcontainer: postCreateCommand is the README's first command (", out)

    def test_comments_with_a_quote_and_strings_with_slashes_pass(self):
        code, out, err = self.run_check()
        self.assertEqual(code, 0, err)
        self.assertEqual(out, "devcontainer: postCreateCommand is the README's first command "
                              "(./torchlings run 01)\n")

    def test_a_readme_without_a_first_command_is_refused(self):
        message = "README.md: no first command (the first line of its first ```sh block)"
        self.assertIn(message, self.refused(readme="# A course\n\n```text\nrun 01\n```\n"))
        self.assertIn(message, self.refused(readme="```sh\n```\n"))

    def test_a_missing_devcontainer_json_is_refused(self):
        self.config.unlink()
        self.assertIn(".devcontainer/devcontainer.json: missing", self.refused())

    def test_a_missing_post_create_command_is_refused(self):
        config = CONFIG.replace('"postCreateCommand"', '"onCreateCommand"')
        self.assertIn(".devcontainer/devcontainer.json: no postCreateCommand; make it the "
                      "README's first command as one string: \"./torchlings run 01\"",
                      self.refused(config))

    def test_an_array_is_refused_asking_for_one_string(self):
        config = CONFIG.replace('"./torchlings run 01"', '["./torchlings", "run", "01"]')
        self.assertIn(".devcontainer/devcontainer.json: postCreateCommand is an array; make it "
                      "the README's first command as one string: \"./torchlings run 01\"",
                      self.refused(config))

    def test_another_command_is_refused_naming_both(self):
        config = CONFIG.replace('"./torchlings run 01"', '"./torchlings run 01 && echo done"')
        self.assertIn(".devcontainer/devcontainer.json: postCreateCommand is \"./torchlings run "
                      "01 && echo done\", but README.md's first command is \"./torchlings run "
                      "01\"; they must be the same", self.refused(config))

    def test_broken_json_is_refused_naming_its_line(self):
        self.assertIn(".devcontainer/devcontainer.json:2: not JSON with comments",
                      self.refused('{ // a comma is missing\n  "name": "x" "image": "y"\n}\n'))
        # A block comment over several lines leaves the lines after it their numbers.
        self.assertIn(".devcontainer/devcontainer.json:5: not JSON with comments",
                      self.refused('{ /* one\n two */ "name": "x",\n\n  "image": "y",\n}\n'))
        # A comma after the last item is named as something JSON does not take.
        self.assertIn("a comma after the last item", self.refused('{"name": "x",}\n'))

    def test_the_first_command_is_the_blocks_first_line_that_is_not_blank(self):
        code, _, err = self.run_check()
        self.assertEqual(code, 0, err)
        (self.root / "README.md").write_text(README.replace("```sh\n", "```sh\n\n"),
                                             encoding="utf-8")
        code, out, err = self.run_check()
        self.assertEqual(code, 0, err)
        self.assertIn("(./torchlings run 01)", out)


if __name__ == "__main__":
    unittest.main()
