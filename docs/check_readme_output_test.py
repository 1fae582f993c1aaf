#!/usr/bin/env python3
"""Test of docs/check_readme_output.py (a CTest, label `docs`): the skeleton keeps what must agree
and drops what may differ (values, blank lines, GPU sections, the text of bullets); a page in step
with a demo passes, GPU runs included; a drifted page, a page without its marker, with two, with a
fence never closed, and a demo that fails are each refused with a message naming the page and what
differs. The demo is a small Python program that prints a fixed text.

    python3 docs/check_readme_output_test.py
"""
import io
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.dont_write_bytecode = True  # importing the check leaves no __pycache__ in the course
import check_readme_output as check  # noqa: E402

DEMO_OUTPUT = """== Devices
CUDA available: no
Devices: 1

== Memory
- the CPU has no device memory to report
- nothing is freed
Allocated 4096 bytes in 3 blocks
"""

PAGE = """# Lesson 01 — Availability

<!-- demo-output -->
```text
$ ./torchlings run 01
== Devices
CUDA available: no
Devices: 1

== Memory
- explained differently on the page
Allocated 512 bytes in 7 blocks
```

A whole run on a GPU machine:

<!-- gpu-output -->
```text
== Devices
CUDA available: yes
Devices: 8

== GPU 0: NVIDIA H100
Memory: 80 GiB
== Memory
- one bullet
- and another
Allocated 1 bytes in 1 blocks
```
"""


class Skeleton(unittest.TestCase):
    def test_keeps_structure_and_drops_values(self):
        self.assertEqual(check.skeleton(DEMO_OUTPUT),
                         ["== Devices", "CUDA available:", "Devices:", "== Memory", "- ...",
                          "Allocated # bytes in # blocks"])

    def test_drops_gpu_sections_up_to_the_next_header(self):
        text = "== GPU 0\nName: x\nplain 12\n== After\nKey: 3\n"
        self.assertEqual(check.skeleton(text), ["== After", "Key:"])

    def test_bullets_separated_by_a_line_stay_two_runs(self):
        self.assertEqual(check.skeleton("- a\nline\n- b\n- c\n"), ["- ...", "line", "- ..."])


class Pages(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)
        self.demo = self.root / "demo.py"
        self.demo.write_text(f"import sys\nsys.stdout.write({DEMO_OUTPUT!r})\n", encoding="utf-8")

    def tearDown(self):
        self.folder.cleanup()

    def run_check(self, *pages, demo_code=None):
        paths = []
        for number, text in enumerate(pages):
            path = self.root / f"README{number}.md"
            path.write_text(text, encoding="utf-8")
            paths += ["--page", str(path)]
        if demo_code is not None:
            self.demo.write_text(demo_code, encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = check.main(paths + [f"--launch={sys.executable}", str(self.demo)])
        return code, out.getvalue(), err.getvalue()

    def test_pages_in_step_pass_with_their_gpu_runs(self):
        code, out, err = self.run_check(PAGE, PAGE.replace("explained", "다르게"))
        self.assertEqual(code, 0, err)
        self.assertIn("README0.md: output matches the demo (6 structural lines; 1 GPU run(s)", out)
        self.assertIn("README1.md: output matches", out)

    def test_a_drifted_line_is_named(self):
        code, _, err = self.run_check(PAGE.replace("Devices: 1", "Device count: 1", 1))
        self.assertEqual(code, 1)
        self.assertIn("README0.md (<!-- demo-output -->) and the demo's output differ at "
                      "skeleton line 3:\n  the page shows: Device count:\n  the demo prints: "
                      "Devices:", err)

    def test_a_drifted_gpu_run_is_named(self):
        code, _, err = self.run_check(PAGE.replace("Allocated 1 bytes", "Freed 1 bytes"))
        self.assertEqual(code, 1)
        self.assertIn("(<!-- gpu-output --> number 1) and the demo's output differ at skeleton "
                      "line 6", err)

    def test_a_missing_line_is_counted(self):
        code, _, err = self.run_check(PAGE.replace("Allocated 512 bytes in 7 blocks\n", "", 1))
        self.assertEqual(code, 1)
        self.assertIn("shows 5 structural lines, the demo prints 6", err)

    def test_a_page_without_its_marker_fails_before_the_demo_runs(self):
        code, _, err = self.run_check(PAGE, PAGE.replace("<!-- demo-output -->", ""),
                                      demo_code="raise SystemExit(5)\n")
        self.assertEqual(code, 1)
        self.assertIn("README1.md: expected a line <!-- demo-output --> above the shown output",
                      err)

    def test_two_markers_and_an_open_fence_are_refused(self):
        twice = PAGE.replace("<!-- gpu-output -->", "<!-- demo-output -->")
        self.assertIn("<!-- demo-output --> appears 2 times", self.run_check(twice)[2])
        open_fence = "<!-- demo-output -->\n```text\nKey: 1\n"
        self.assertIn("README0.md:2: the ```text fence after <!-- demo-output --> is never closed",
                      self.run_check(open_fence)[2])
        no_fence = "<!-- demo-output -->\n\n```text\nKey: 1\n```\n"
        self.assertIn("README0.md:1: expected a ```text fence right after",
                      self.run_check(no_fence)[2])

    def test_a_failing_demo_is_reported_with_its_output(self):
        code, _, err = self.run_check(PAGE, demo_code="print('partial')\nraise SystemExit(3)\n")
        self.assertEqual(code, 1)
        self.assertIn("exited with 3:\npartial", err)


if __name__ == "__main__":
    unittest.main()
