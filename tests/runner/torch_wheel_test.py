"""Unit tests of scripts/setup/torch_wheel.py, each decision on its own.

    python3 tests/runner/torch_wheel_test.py <course root>     (CTest: runner/setup/torch_wheel)
"""

import contextlib
import io
import os
import stat
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(sys.argv.pop(1) if len(sys.argv) > 1 else ".") / "scripts" / "setup"))
import torch_wheel  # noqa: E402

# torch 2.15.0's Requires-Dist lines, as importlib.metadata.requires('torch') gives them.
TORCH_REQUIRES = [
    "filelock", "typing-extensions>=4.13.0", "setuptools>=77.0.3", "sympy>=1.13.3",
    "networkx>=2.5.1", "jinja2", "fsspec>=0.8.5",
    'cuda-toolkit[cublas,cudart,cufft,cufile,cupti,cusolver,cusparse,nvjitlink,nvrtc,nvtx]==13.2.2; platform_system == "Linux"',
    'nvidia-cudnn-cu13==9.26.0.51; platform_system == "Linux"',
    'nvidia-nccl-cu13==2.30.7; platform_system == "Linux"',
    'triton~=3.9.0; platform_system == "Linux" and python_version < "3.16"',
    'optree>=0.13.0; extra == "optree"', 'pyyaml; extra=="pyyaml"',
]


class FakeInstaller:
    """Records which installs were tried; each answers as told."""

    def __init__(self, cpu_ok=True, pypi_ok=True):
        self.cpu_ok, self.pypi_ok, self.calls = cpu_ok, pypi_ok, []

    def cpu_wheel(self):
        self.calls.append("cpu")
        return self.cpu_ok

    def pypi_wheel(self):
        self.calls.append("pypi")
        return self.pypi_ok


def run_install(venv, installer, cuda_asked=False, has_driver=False, korean=False):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        rc = torch_wheel.install(venv, "torch", cuda_asked, korean, installer, has_driver=has_driver)
    return rc, err.getvalue()


class Decisions(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.venv = Path(self.tmp.name) / "venv"
        self.venv.mkdir()

    def tearDown(self):
        self.tmp.cleanup()

    def test_cpu_wheel_without_a_driver_and_cuda_with_one_or_when_asked(self):
        self.assertEqual(torch_wheel.flavour(cuda_asked=False, has_driver=False), "cpu")
        self.assertEqual(torch_wheel.flavour(cuda_asked=False, has_driver=True), "cuda")
        self.assertEqual(torch_wheel.flavour(cuda_asked=True, has_driver=False), "cuda")

    def test_a_driver_is_seen_by_its_files_or_nvidia_smi(self):
        with mock.patch("shutil.which", return_value=None):
            self.assertFalse(torch_wheel.driver_present((str(self.venv / "absent"),)))
            self.assertTrue(torch_wheel.driver_present((str(self.venv),)))
        with mock.patch("shutil.which", return_value="/usr/bin/nvidia-smi"):
            self.assertTrue(torch_wheel.driver_present((str(self.venv / "absent"),)))

    def test_requirements_keep_markers_and_drop_triton_and_extras(self):
        kept = torch_wheel.kept_requirements(TORCH_REQUIRES)
        self.assertEqual(kept, TORCH_REQUIRES[:10])
        self.assertFalse([r for r in kept if r.startswith("triton") or "extra" in r])

    def test_no_driver_installs_the_cpu_wheel_only(self):
        installer = FakeInstaller()
        rc, err = run_install(self.venv, installer)
        self.assertEqual((rc, installer.calls), (0, ["cpu"]))
        self.assertIn("CPU-only", err)
        self.assertIn("./torchlings setup --cuda", err)
        self.assertFalse((self.venv / torch_wheel.MARKER).exists())
        self.assertEqual((self.venv / torch_wheel.RECORD).read_text(),
                         f"CPU-only, from {torch_wheel.CPU_INDEX} (no NVIDIA driver)\n")

    def test_an_unreachable_cpu_index_falls_back_to_pypi_in_one_line(self):
        installer = FakeInstaller(cpu_ok=False)
        rc, err = run_install(self.venv, installer)
        self.assertEqual((rc, installer.calls), (0, ["cpu", "pypi"]))
        self.assertEqual(len([line for line in err.splitlines() if "cannot be reached" in line]), 1)
        self.assertFalse((self.venv / torch_wheel.MARKER).exists())
        self.assertIn("with CUDA, from PyPI, without triton (no NVIDIA driver, but",
                      (self.venv / torch_wheel.RECORD).read_text())

    def test_a_driver_or_cuda_asked_goes_straight_to_pypi(self):
        for kwargs in ({"has_driver": True}, {"cuda_asked": True}):
            installer = FakeInstaller()
            rc, err = run_install(self.venv, installer, **kwargs)
            self.assertEqual((rc, installer.calls), (0, ["pypi"]))
            self.assertIn("CUDA libraries", err)
            why = "asked for (--cuda)" if "cuda_asked" in kwargs else "an NVIDIA driver is installed"
            self.assertEqual((self.venv / torch_wheel.RECORD).read_text(),
                             f"with CUDA, from PyPI, without triton ({why})\n")

    def test_a_failed_install_keeps_the_marker_and_says_what_to_do(self):
        installer = FakeInstaller(cpu_ok=False, pypi_ok=False)
        rc, err = run_install(self.venv, installer)
        self.assertEqual(rc, 3)
        self.assertTrue((self.venv / torch_wheel.MARKER).exists())
        self.assertFalse((self.venv / torch_wheel.RECORD).exists())
        self.assertIn("pip could not install 'torch'", err)
        self.assertIn("LIBTORCH", err)

    def test_too_little_space_stops_before_pip_naming_folder_and_sizes(self):
        usage = mock.Mock(free=300_000_000)
        with mock.patch("shutil.disk_usage", return_value=usage):
            installer = FakeInstaller()
            rc, err = run_install(self.venv, installer)
        self.assertEqual((rc, installer.calls), (3, []))
        self.assertIn(str(self.venv), err)
        self.assertIn("0.3 GB free, about 1.5 GB needed", err)
        self.assertFalse((self.venv / torch_wheel.MARKER).exists())

    def test_space_is_measured_on_the_nearest_existing_folder(self):
        self.assertIsNone(torch_wheel.short_of_space(self.venv / "not" / "yet", 1))

    def test_messages_in_korean(self):
        rc, err = run_install(self.venv, FakeInstaller(cpu_ok=False), korean=True)
        self.assertEqual(rc, 0)
        self.assertIn("CPU 전용", err)
        self.assertIn("닿지 않습니다", err)
        self.assertNotIn("cannot be reached", err)


class PipCommands(unittest.TestCase):
    """The real pip command lines, given to a stand-in for the venv's python that logs them."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.venv = Path(self.tmp.name) / "venv"
        (self.venv / "bin").mkdir(parents=True)
        self.log = Path(self.tmp.name) / "calls"
        python = self.venv / "bin" / "python"
        requires = "\\n".join(TORCH_REQUIRES).replace("'", "'\\''")
        python.write_text(f"""#!/bin/sh
if [ "$1" = -c ]; then printf '%b\\n' '{requires}'; exit 0; fi
printf '%s\\n' "$*" >>'{self.log}'
case "$*" in *--index-url*) exit 1 ;; esac
exit 0
""")
        python.chmod(python.stat().st_mode | stat.S_IXUSR)

    def tearDown(self):
        self.tmp.cleanup()

    def test_one_quick_try_of_the_cpu_index_then_torch_without_deps_then_its_kept_deps(self):
        installer = torch_wheel.Installer(self.venv, "torch==2.15.0", on_terminal=False)
        rc, _ = run_install(self.venv, installer)
        self.assertEqual(rc, 0)
        calls = self.log.read_text().splitlines()
        self.assertEqual(len(calls), 3, calls)
        self.assertIn(f"--index-url {torch_wheel.CPU_INDEX} --timeout 10 --retries 0", calls[0])
        self.assertTrue(calls[0].endswith("torch==2.15.0 numpy"))
        self.assertIn("--no-deps torch==2.15.0", calls[1])
        self.assertIn("nvidia-nccl-cu13==2.30.7", calls[2])
        self.assertNotIn("triton", calls[2])
        self.assertTrue(calls[2].endswith("numpy"))


if __name__ == "__main__":
    os.environ.pop("TORCHLINGS_LANG", None)
    unittest.main(verbosity=2)
