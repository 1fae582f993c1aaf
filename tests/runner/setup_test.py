"""Unit tests of the set-up (scripts/setup/*.py), each decision on its own.

    python3 tests/runner/setup_test.py <course root>     (CTest: runner/setup/decisions)
"""

import contextlib
import hashlib
import http.client
import io
import os
import stat
import subprocess
import sys
import tarfile
import tempfile
import unittest
from pathlib import Path
from unittest import mock

ROOT = Path(sys.argv.pop(1) if len(sys.argv) > 1 else ".").resolve()
sys.path.insert(0, str(ROOT / "scripts" / "setup"))
import cuda_toolkit  # noqa: E402
import macos  # noqa: E402
import main  # noqa: E402
import messages  # noqa: E402
import packages  # noqa: E402
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

    def __init__(self, cpu_ok=True, pypi_ok=True, reachable=None, cpu_use="cpu-use",
                 cuda_library=True):
        self.cpu_ok, self.pypi_ok, self.cpu_use, self.calls = cpu_ok, pypi_ok, cpu_use, []
        self.cuda_library = cuda_library
        # By default an index that fails the install is one that cannot be reached.
        self.reachable = cpu_ok if reachable is None else reachable

    def cpu_index_reachable(self):
        self.calls.append("look")
        return self.reachable

    def cpu_wheel(self):
        self.calls.append("cpu")
        return self.cpu_ok

    def cpu_use_wheel(self):
        self.calls.append("cpu-use")
        return self.cpu_use

    def has_cuda_library(self):
        return self.cuda_library

    def pypi_wheel(self):
        self.calls.append("pypi")
        return self.pypi_ok


def roomy_disk(test):
    """Free space for every wheel, whatever this machine's temporary folder has (a test of the
    space check patches shutil.disk_usage again inside)."""
    patcher = mock.patch("shutil.disk_usage", return_value=mock.Mock(free=100_000_000_000))
    patcher.start()
    test.addCleanup(patcher.stop)


def run_install(venv, installer, cuda_asked=False, has_driver=False, korean=False,
                system="linux"):
    """(0, what was said) when it installed, (3, what was said and the error) when not."""
    err = io.StringIO()
    language = {"TORCHLINGS_SETUP_KOREAN": "1" if korean else ""}
    with contextlib.redirect_stderr(err), mock.patch.dict(os.environ, language):
        try:
            torch_wheel.install(venv, "torch", cuda_asked, installer, has_driver=has_driver,
                                system=system)
            rc = 0
        except messages.SetupError as error:
            print(error, file=sys.stderr)
            rc = 3
    return rc, err.getvalue()


class TorchWheel(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.venv = Path(self.tmp.name) / "venv"
        self.venv.mkdir()
        roomy_disk(self)

    def tearDown(self):
        self.tmp.cleanup()

    def test_cpu_wheel_without_a_driver_and_cuda_with_one_or_when_asked(self):
        linux = {"system": "linux"}   # the same answers wherever this test runs
        self.assertEqual(torch_wheel.flavour(cuda_asked=False, has_driver=False, **linux), "cpu")
        self.assertEqual(torch_wheel.flavour(cuda_asked=False, has_driver=True, **linux), "cuda")
        self.assertEqual(torch_wheel.flavour(cuda_asked=True, has_driver=False, **linux), "cuda")
        # The cpu-only preset compiles no kernel: a driver does not bring the CUDA wheel.
        self.assertEqual(torch_wheel.flavour(False, has_driver=True, cpu_asked=True, **linux),
                         "cpu")

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
        self.assertEqual((rc, installer.calls), (0, ["look", "cpu"]))
        self.assertIn("CPU-only", err)
        self.assertIn("./torchlings setup --cuda", err)
        self.assertFalse((self.venv / torch_wheel.MARKER).exists())
        self.assertEqual((self.venv / torch_wheel.RECORD).read_text(),
                         f"CPU-only, from {torch_wheel.CPU_INDEX} (no NVIDIA driver)\n")

    def test_an_unreachable_cpu_index_falls_back_to_pypi_without_cuda_in_one_line(self):
        installer = FakeInstaller(cpu_ok=False)
        rc, err = run_install(self.venv, installer)
        self.assertEqual((rc, installer.calls), (0, ["look", "cpu-use"]))
        self.assertEqual(len([line for line in err.splitlines() if "cannot be reached" in line]), 1)
        self.assertIn("without its CUDA libraries", err)
        self.assertFalse((self.venv / torch_wheel.MARKER).exists())
        self.assertTrue((self.venv / torch_wheel.CPU_USE).exists())
        self.assertIn("PyPI's CUDA wheel used as CPU-only, without its CUDA libraries (no NVIDIA "
                      "driver, and", (self.venv / torch_wheel.RECORD).read_text())

    def test_a_cpu_wheel_that_fails_to_install_falls_back_saying_so_not_unreachable(self):
        installer = FakeInstaller(cpu_ok=False, reachable=True)
        rc, err = run_install(self.venv, installer)
        self.assertEqual((rc, installer.calls), (0, ["look", "cpu", "cpu-use"]))
        self.assertIn("could not be installed", err)
        self.assertNotIn("cannot be reached", err)
        self.assertIn("failed to install", (self.venv / torch_wheel.RECORD).read_text())

    def test_pypi_without_cuda_that_does_not_load_gets_the_cuda_libraries_too(self):
        (self.venv / torch_wheel.CPU_USE).touch()   # left by an earlier install, cut short
        installer = FakeInstaller(cpu_ok=False, cpu_use="no-load")
        rc, err = run_install(self.venv, installer)
        self.assertEqual((rc, installer.calls), (0, ["look", "cpu-use", "pypi"]))
        self.assertIn("installing them too", err)
        self.assertFalse((self.venv / torch_wheel.CPU_USE).exists())
        self.assertIn("with CUDA, from PyPI, without triton (no NVIDIA driver, and",
                      (self.venv / torch_wheel.RECORD).read_text())

    def test_a_pip_failure_without_cuda_libraries_is_said_as_such_not_retried_with_them(self):
        installer = FakeInstaller(cpu_ok=False, cpu_use="pip")
        rc, err = run_install(self.venv, installer)
        self.assertEqual((rc, installer.calls), (3, ["look", "cpu-use"]))
        self.assertIn("pip could not install 'torch'", err)
        self.assertNotIn("installing them too", err)
        self.assertFalse((self.venv / torch_wheel.CPU_USE).exists())
        self.assertTrue((self.venv / torch_wheel.MARKER).exists())

    def test_pypi_torch_without_cuda_gets_its_own_dependencies_and_says_cpu_only(self):
        # Linux on ARM: PyPI's torch has no libtorch_cuda.so, so there is nothing to leave out.
        installer = FakeInstaller(cpu_ok=False, cpu_use="not-cuda", cuda_library=False)
        rc, err = run_install(self.venv, installer)
        self.assertEqual((rc, installer.calls), (0, ["look", "cpu-use", "pypi"]))
        self.assertNotIn("installing them too", err)
        self.assertFalse((self.venv / torch_wheel.CPU_USE).exists())
        self.assertTrue((self.venv / torch_wheel.RECORD).read_text().startswith(
            "CPU-only, from PyPI (no NVIDIA driver, and"))

    def test_each_fallback_checks_the_space_it_needs(self):
        usage = mock.Mock(free=2_000_000_000)   # room for the CPU wheel only
        with mock.patch("shutil.disk_usage", return_value=usage):
            installer = FakeInstaller(cpu_ok=False)
            rc, err = run_install(self.venv, installer)
        self.assertEqual((rc, installer.calls), (3, ["look"]))
        self.assertIn("2.0 GB free, about 2.5 GB needed", err)
        self.assertTrue((self.venv / torch_wheel.MARKER).exists())
        usage = mock.Mock(free=3_000_000_000)   # room for PyPI's torch alone, not with CUDA's
        with mock.patch("shutil.disk_usage", return_value=usage):
            installer = FakeInstaller(cpu_ok=False, cpu_use="no-load")
            rc, err = run_install(self.venv, installer)
        self.assertEqual((rc, installer.calls), (3, ["look", "cpu-use"]))
        self.assertIn("3.0 GB free, about 8.5 GB needed", err)

    def test_only_the_cuda_runtime_and_cupti_for_libtorch_cpu(self):
        # 2.15 declares NVIDIA's metapackage with one extra per library; 2.9 (CUDA 12.8) the
        # packages themselves.
        self.assertEqual(torch_wheel.cpu_use_requirements(TORCH_REQUIRES),
                         ['cuda-toolkit[cudart,cupti]==13.2.2; platform_system == "Linux"'])
        cu12 = ['nvidia-cuda-nvrtc-cu12==12.8.93; platform_system == "Linux"',
                'nvidia-cuda-runtime-cu12==12.8.90; platform_system == "Linux"',
                'nvidia-cuda-cupti-cu12==12.8.90; platform_system == "Linux"',
                'nvidia-cudnn-cu12==9.10.2.21; platform_system == "Linux"', "sympy>=1.13.3"]
        self.assertEqual(torch_wheel.cpu_use_requirements(cu12), cu12[1:3])

    def test_a_venv_marked_cpu_use_is_cpu_only_for_the_toolkit_and_setup_cuda(self):
        torch_root = self.venv / "lib" / "python3.12" / "site-packages" / "torch"
        (torch_root / "lib").mkdir(parents=True)
        (torch_root / "lib" / "libtorch_cuda.so").touch()
        (torch_root / "version.py").write_text("__version__ = '2.15.0'\ncuda = '13.2'\n")
        (torch_root.parent / "numpy").mkdir()   # not installed again either way
        place = main.Layout(Path(self.tmp.name), "dev", Path(self.tmp.name), self.venv,
                            Path(self.tmp.name) / "build" / "dev")
        # A CUDA venv: a CUDA torch, kept by setup --cuda.
        self.assertFalse(torch_wheel.used_as_cpu_only(torch_root))
        self.assertIsNotNone(cuda_toolkit.torch_build(torch_root))
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertIsNone(main.replace_cpu_torch(place))
        self.assertTrue(self.venv.exists())
        # Marked: CPU-only for the toolkit's choice, set aside by setup --cuda (and the build
        # folder that used it configured again).
        (self.venv / torch_wheel.CPU_USE).touch()
        self.assertTrue(torch_wheel.used_as_cpu_only(torch_root))
        self.assertIsNone(cuda_toolkit.torch_build(torch_root))
        cache = place.build / "CMakeCache.txt"
        cache.parent.mkdir(parents=True)
        cache.write_text(f"Torch_DIR:PATH={self.venv}/lib/python3.12/site-packages/torch/share\n")
        with contextlib.redirect_stderr(io.StringIO()):
            aside = main.replace_cpu_torch(place)
        self.assertEqual(aside, self.venv.with_name("venv.cpu-only"))
        self.assertFalse(self.venv.exists())
        self.assertFalse(cache.exists())

    def test_numpy_is_not_added_to_a_venv_used_as_cpu_only(self):
        (self.venv / "lib" / "python3.12" / "site-packages" / "torch").mkdir(parents=True)
        (self.venv / torch_wheel.CPU_USE).touch()
        with mock.patch("subprocess.run") as run, contextlib.redirect_stderr(io.StringIO()):
            main.add_numpy(self.venv)
        run.assert_not_called()
        (self.venv / torch_wheel.CPU_USE).unlink()
        with mock.patch("subprocess.run", return_value=mock.Mock(returncode=0)) as run, \
                contextlib.redirect_stderr(io.StringIO()):
            main.add_numpy(self.venv)
        self.assertIn("numpy", run.call_args[0][0])

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
        installer = FakeInstaller(cpu_ok=False, cpu_use="no-load", pypi_ok=False)
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
        self.assertIn("접속할 수 없습니다", err)
        self.assertNotIn("cannot be reached", err)


class PipCommands(unittest.TestCase):
    """The real pip command lines, given to a stand-in for the venv's python that logs them."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.venv = Path(self.tmp.name) / "venv"
        (self.venv / "bin").mkdir(parents=True)
        # What `pip install --no-deps torch` leaves of PyPI's CUDA wheel, for has_cuda_library().
        torch_lib = self.venv / "lib" / "python3.12" / "site-packages" / "torch" / "lib"
        torch_lib.mkdir(parents=True)
        (torch_lib / "libtorch_cuda.so").touch()
        roomy_disk(self)
        self.log = Path(self.tmp.name) / "calls"
        python = self.venv / "bin" / "python"
        requires = "\\n".join(TORCH_REQUIRES).replace("'", "'\\''")
        python.write_text(f"""#!/bin/sh
if [ "$1" = -c ]; then printf '%b\\n' '{requires}'; exit 0; fi
printf '%s [extra=%s]\\n' "$*" "${{PIP_EXTRA_INDEX_URL-unset}}" >>'{self.log}'
case "$*" in *"-m pip index "*) exit "${{FAKE_INDEX_RC:-1}}" ;; *--index-url*) exit 1 ;; esac
case "$*" in *"-m pip install "*) printf '%s\n' "$TMPDIR" >>'{self.log}.tmpdir'; [ -d "$TMPDIR" ] || exit 9 ;; esac
exit 0
""")
        python.chmod(python.stat().st_mode | stat.S_IXUSR)

    def tearDown(self):
        self.tmp.cleanup()

    def calls(self, index_rc, has_driver=False):
        installer = torch_wheel.Installer(self.venv, "torch==2.15.0", on_terminal=False)
        with mock.patch.dict(os.environ, {"FAKE_INDEX_RC": str(index_rc)}):
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                torch_wheel.install(self.venv, "torch==2.15.0", False, installer,
                                    has_driver=has_driver)
        return self.log.read_text().splitlines()

    def test_one_quick_look_at_the_cpu_index_then_torch_without_deps_then_two_libraries(self):
        calls = self.calls(index_rc=1)
        self.assertEqual(len(calls), 3, calls)
        self.assertIn(f"-m pip index --disable-pip-version-check versions --index-url "
                      f"{torch_wheel.CPU_INDEX} --timeout 10 --retries 0 torch [extra= ]", calls[0])
        self.assertIn("--no-deps torch==2.15.0", calls[1])
        self.assertTrue(calls[2].endswith(
            'cuda-toolkit[cudart,cupti]==13.2.2; platform_system == "Linux" [extra=unset]'), calls)
        self.assertTrue((self.venv / torch_wheel.CPU_USE).exists())

    def test_a_driver_gets_torch_without_deps_then_its_kept_deps(self):
        calls = self.calls(index_rc=1, has_driver=True)
        self.assertEqual(len(calls), 2, calls)
        self.assertIn("--no-deps torch==2.15.0", calls[0])
        self.assertIn("nvidia-nccl-cu13==2.30.7", calls[1])
        self.assertIn("--no-warn-conflicts", calls[1])   # else pip calls the missing triton an error
        self.assertNotIn("triton", calls[1])
        self.assertTrue(calls[1].endswith("numpy [extra=unset]"))
        # Every install unpacks its downloads beside the venv (not a small RAM-backed /tmp),
        # keeps no copy in pip's cache, and leaves nothing behind.
        scratch = str(self.venv / ".pip-scratch")
        self.assertEqual(Path(f"{self.log}.tmpdir").read_text().splitlines(), [scratch, scratch])
        self.assertTrue(all("--no-cache-dir" in call for call in calls))
        self.assertFalse(Path(scratch).exists())
        self.assertFalse((self.venv / torch_wheel.CPU_USE).exists())

    def test_the_load_check_runs_in_the_venv_without_importing_torch(self):
        installer = torch_wheel.Installer(self.venv, "torch", on_terminal=False)
        with mock.patch("subprocess.run", return_value=mock.Mock(returncode=1)) as run:
            self.assertFalse(installer.cpu_library_loads())
        command = run.call_args[0][0]
        self.assertEqual(command[:2], [str(self.venv / "bin" / "python"), "-c"])
        self.assertIn("find_spec('torch')", command[2])
        self.assertIn("libtorch_cpu.so", command[2])
        self.assertNotIn("import torch", command[2])

    def test_a_cpu_index_that_answers_gets_an_install_with_progress_retries_and_only_it(self):
        calls = self.calls(index_rc=0)
        self.assertEqual(len(calls), 4, calls)   # the fake fails that install: PyPI's follows
        self.assertIn(f"install --disable-pip-version-check --no-cache-dir --index-url {torch_wheel.CPU_INDEX} "
                      "--quiet --progress-bar=off torch==2.15.0 numpy [extra= ]", calls[1])
        self.assertNotIn("--retries", calls[1])

    def test_this_pip_still_has_the_index_command_the_probe_uses(self):
        # `pip index` is marked experimental: were it removed, the probe would fail everywhere and
        # every machine without a driver would quietly get the 3 GB CUDA wheel.
        if subprocess.run([sys.executable, "-m", "pip", "--version"],
                          capture_output=True).returncode != 0:
            self.skipTest("no pip for this Python")
        result = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "--help"],
                                capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_unreadable_torch_metadata_is_a_failed_install(self):
        installer = torch_wheel.Installer(self.venv, "torch", on_terminal=False)
        with mock.patch.object(installer, "requires", return_value=None):
            self.assertFalse(installer.pypi_wheel())


class Layouts(unittest.TestCase):
    def layout(self, root, **environ):
        return main.layout(root, environ, Path("/cache"))

    def test_preset_build_folder_and_venv(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            plain = self.layout(root)
            self.assertEqual((plain.preset, plain.venv, plain.build),
                             ("dev", Path("/cache/venv"), root / "build" / "dev"))
            # CI=true: the ci preset in the course itself, dev in a class copy (no solutions/).
            self.assertEqual(self.layout(root, CI="true").preset, "dev")
            (root / "solutions").mkdir()
            self.assertEqual(self.layout(root, CI="true").preset, "ci")
            self.assertEqual(self.layout(root, CI="true", TORCHLINGS_PRESET="asan").preset, "asan")
            named = self.layout(root, TORCHLINGS_TORCH_SPEC="torch==2.11.0")
            self.assertEqual((named.venv, named.build), (Path("/cache/venv-torch-2.11.0"),
                                                         root / "build" / "dev-torch-2.11.0"))
            moved = self.layout(root, TORCHLINGS_BUILD_DIR="/elsewhere")
            self.assertEqual(moved.build, Path("/elsewhere"))
            self.assertEqual(moved.runner, Path("/elsewhere/bin/torchlings-runner"))

    def test_a_system_other_than_linux_or_macos_is_told_where_the_course_runs(self):
        err = io.StringIO()
        with mock.patch.object(sys, "platform", "freebsd14"), \
                mock.patch("platform.system", return_value="FreeBSD"), \
                contextlib.redirect_stderr(err):
            with self.assertRaises(messages.SetupError) as raised:
                main.main(ROOT, Path("/cache"), ["run", "01"])
        self.assertIn("this is FreeBSD", str(raised.exception))
        self.assertIn("dev container", str(raised.exception))

    def test_macos_refuses_cuda_before_anything_is_installed(self):
        with mock.patch.object(sys, "platform", "darwin"), \
                mock.patch("platform.machine", return_value="arm64"), \
                mock.patch.object(main, "configure") as configure:
            with self.assertRaises(messages.SetupError) as raised:
                main.main(ROOT, Path("/cache"), ["setup", "--cuda"])
        configure.assert_not_called()
        self.assertIn("macOS has no CUDA", str(raised.exception))

    def test_ninja_progress_lines(self):
        self.assertEqual(main.progress_step("[3/152] Building CXX object a.o"), "3/152")
        self.assertIsNone(main.progress_step("[0/2] Re-checking globbed directories..."))
        self.assertIsNone(main.progress_step("FAILED: a.o"))

    def test_one_marker_for_an_unfinished_install(self):
        self.assertEqual(main.TORCH_MARKER, torch_wheel.MARKER)
        with tempfile.TemporaryDirectory() as tmp:
            venv = Path(tmp) / "venv"
            venv.mkdir()
            with contextlib.redirect_stderr(io.StringIO()):
                main.remove_unfinished_venv(venv)
                self.assertTrue(venv.exists())
                (venv / main.TORCH_MARKER).touch()
                main.remove_unfinished_venv(venv)
            self.assertFalse(venv.exists())


class Packages(unittest.TestCase):
    def test_missing_packages_by_program_and_header(self):
        with tempfile.TemporaryDirectory() as include:
            for header in ("catch2/catch_test_macros.hpp", "CLI/CLI.hpp", "nlohmann/json.hpp",
                           "openssl/evp.h", "gloo/algorithm.h"):
                Path(include, header).parent.mkdir(parents=True, exist_ok=True)
                Path(include, header).touch()
            found = packages.missing_packages(lambda name: name != "ninja", (include,))
            self.assertEqual(found, ["ninja-build", "libbenchmark-dev"])
            self.assertEqual(packages.missing_packages(lambda name: None, ()),
                             ["g++", "cmake", "ninja-build", "doxygen", "python3", "catch2",
                              "libbenchmark-dev", "libcli11-dev", "nlohmann-json3-dev",
                              "libssl-dev", "libgloo-dev", "git"])

    def test_the_distributions_clang_or_the_tested_fallback_or_none(self):
        def packaged(*names):
            return lambda package: package in names
        both = packaged("clang-19", "libomp-19-dev", "clang-16", "libomp-16-dev")
        self.assertEqual(packages.clang_to_install(19, both), 19)        # Debian 13
        self.assertEqual(packages.clang_to_install(14, both), 16)        # Debian 12
        self.assertIsNone(packages.clang_to_install(15, packaged("clang-15")))  # Ubuntu 22.04
        self.assertIsNone(packages.clang_to_install(22, packaged("clang-22")))
        self.assertIsNone(packages.clang_to_install(None, both))

    def test_installed_clangs_newest_first_from_the_floor(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            for folder, name in ((a, "clang++-14"), (a, "clang++-18"), (b, "clang++-19"),
                                 (b, "clang++-19-extra"), (b, "clang++-17")):
                Path(folder, name).touch(mode=0o755)
            Path(b, "clang++-17").chmod(0o644)   # not executable
            self.assertEqual(packages.installed_clangs(f"{a}:{b}:/absent"), [19, 18])

    def test_a_venv_whose_python_is_gone_has_no_pip(self):
        with tempfile.TemporaryDirectory() as tmp:
            python = Path(tmp, "bin", "python")
            python.parent.mkdir()
            python.symlink_to(Path(tmp, "python3.99"))   # dangling, as after an upgrade
            self.assertFalse(torch_wheel.pip_runs(str(python)))

    def test_the_openmp_probe_runs_once_until_packages_are_installed(self):
        compiles = []

        def run(command, **kwargs):
            compiles.append(command[0])
            return subprocess.CompletedProcess(command, 1 if "18" in command[0] else 0)
        packages._PROBED.clear()
        with mock.patch.object(packages, "installed_clangs", return_value=[18, 16]), \
                mock.patch.object(packages.shutil, "which", side_effect=lambda n: "/usr/bin/" + n), \
                mock.patch.object(packages.subprocess, "run", side_effect=run):
            self.assertEqual(packages.choose_clang(quiet=True), "/usr/bin/clang++-16")
            self.assertEqual(packages.choose_clang(), "/usr/bin/clang++-16")
            self.assertEqual(len(compiles), 2)      # 18 without libomp, then 16: probed once
            with mock.patch.object(packages, "_apt", return_value=["apt-get"]):
                packages.apt_install(["libomp-18-dev"])  # may bring the newer Clang's runtime
            compiles.clear()
            packages.choose_clang()
            self.assertEqual(compiles[:2], ["/usr/bin/clang++-18", "/usr/bin/clang++-16"])
        packages._PROBED.clear()

    def test_apt_as_root_through_sudo_or_not_at_all(self):
        def which(*present):
            return lambda name: f"/usr/bin/{name}" if name in present else None

        def sudo_answers(code):
            asked = []

            def run(command, **kwargs):
                asked.append(command)
                return subprocess.CompletedProcess(command, code)
            return run, asked
        env = ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]
        never, asked_of_root = sudo_answers(0)
        self.assertEqual(packages.apt_command(lambda: 0, which("apt-get", "sudo"), never),
                         ["apt-get"])
        self.assertEqual(asked_of_root, [])   # root never asks sudo
        self.assertIsNone(packages.apt_command(lambda: 0, which("sudo"), never))
        self.assertIsNone(packages.apt_command(lambda: 1000, which("apt-get"), never))
        # A user whom sudo lets in without a password (a cloud image, a CI runner).
        run, asked = sudo_answers(0)
        self.assertEqual(packages.apt_command(lambda: 1000, which("apt-get", "sudo"), run),
                         ["/usr/bin/sudo", "-n", *env])
        self.assertEqual(asked, [["/usr/bin/sudo", "-n", "true"]])
        # sudo wants a password: asked for at a terminal, and only of a member of a sudo group.
        run, _ = sudo_answers(1)
        self.assertEqual(packages.apt_command(lambda: 1000, which("apt-get", "sudo"), run,
                                              interactive=True, groups={"learner", "sudo"}),
                         ["/usr/bin/sudo", *env])
        self.assertEqual(packages.apt_command(lambda: 1000, which("apt-get", "sudo"), run,
                                              interactive=True, groups={"wheel"})[0],
                         "/usr/bin/sudo")
        self.assertIsNone(packages.apt_command(lambda: 1000, which("apt-get", "sudo"), run,
                                               interactive=False, groups={"sudo"}))
        self.assertIsNone(packages.apt_command(lambda: 1000, which("apt-get", "sudo"), run,
                                               interactive=True, groups={"learner"}))
        # A proxy the learner set reaches apt-get through sudo.
        run, _ = sudo_answers(0)
        with mock.patch.dict(os.environ, {"https_proxy": "http://proxy:3128"}):
            self.assertIn("https_proxy=http://proxy:3128",
                          packages.apt_command(lambda: 1000, which("apt-get", "sudo"), run))

    def test_the_optional_theme_is_never_worth_a_password(self):
        installed = []
        for command, wanted in ((["/usr/bin/sudo", "env", "apt-get"], []),
                                (["/usr/bin/sudo", "-n", "env", "apt-get"], [packages.SITE_THEME]),
                                (["apt-get"], [packages.SITE_THEME]), (None, [])):
            installed.clear()
            with mock.patch.object(packages, "_apt", return_value=command), \
                    mock.patch.object(packages.os.path, "exists", return_value=False), \
                    mock.patch.object(packages, "apt_candidate", return_value=True), \
                    mock.patch.object(packages, "apt_install",
                                      side_effect=lambda names: installed.extend(names) or True), \
                    contextlib.redirect_stderr(io.StringIO()):
                packages.install_site_theme()
            self.assertEqual(installed, wanted, command)

    def test_a_password_is_announced_once_and_only_when_sudo_may_ask(self):
        started = []

        def run(command, **kwargs):
            started.append(command)
            return subprocess.CompletedProcess(command, 0)
        for command, announced in ((["/usr/bin/sudo", "env", "apt-get"], 1),
                                   (["/usr/bin/sudo", "-n", "env", "apt-get"], 0),
                                   (["apt-get"], 0)):
            packages._apt.cache_clear()
            packages._announced = False
            err = io.StringIO()
            with mock.patch.object(packages, "apt_command", return_value=command), \
                    mock.patch.object(packages.subprocess, "run", side_effect=run), \
                    contextlib.redirect_stderr(err):
                self.assertTrue(packages.apt_run("update", "-qq"))
                self.assertTrue(packages.apt_install(["g++"]))
            self.assertEqual(err.getvalue().count("sudo"), announced, command)
            self.assertEqual(started[-1][:len(command)], command)
            self.assertEqual(started[-1][len(command):],
                             ["install", "-y", "-qq", "--no-install-recommends", "g++"])
        packages._apt.cache_clear()
        with mock.patch.object(packages, "apt_command", return_value=None):
            self.assertFalse(packages.can_apt())
            self.assertFalse(packages.apt_install(["g++"]))
        packages._apt.cache_clear()

    def test_the_cmake_floor_comes_from_cmakelists(self):
        self.assertRegex(packages.cmake_floor(ROOT), r"^3\.\d+$")
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaises(messages.SetupError) as raised:
                packages.cmake_floor(Path(tmp))
            self.assertIn("is this the course's folder?", str(raised.exception))

    def test_the_package_list_has_what_missing_packages_names(self):
        listed = packages.package_list(ROOT)
        for name in packages.missing_packages(lambda name: None, ()):
            self.assertIn(name, listed)


def torch_folder(tmp, version_py=None, build_version=None, pin=None, cuda=True):
    site = Path(tmp) / "site-packages"
    torch = site / "torch"
    (torch / "lib").mkdir(parents=True)
    if cuda:
        (torch / "lib" / "libtorch_cuda.so").touch()
    if version_py:
        (torch / "version.py").write_text(version_py)
    if build_version:
        (torch / "build-version").write_text(build_version)
    if pin:
        (site / "torch-2.15.0.dist-info").mkdir()
        (site / "torch-2.15.0.dist-info" / "METADATA").write_text(
            f"Requires-Dist: cuda-toolkit[cublas,cudart]=={pin}; platform_system == \"Linux\"\n")
    return torch


class CudaToolkit(unittest.TestCase):
    def test_what_the_torch_was_built_with(self):
        with tempfile.TemporaryDirectory() as tmp:
            torch = torch_folder(tmp, version_py="__version__ = '2.15.0+cu132'\ncuda: "
                                 "Optional[str] = '13.2'\n", pin="13.2.2")
            self.assertEqual(cuda_toolkit.torch_build(torch),
                             cuda_toolkit.TorchBuild("2.15.0+cu132", "13.2", "13.2.2"))
        with tempfile.TemporaryDirectory() as tmp:
            torch = torch_folder(tmp, build_version="2.9.1+cu128\n")
            self.assertEqual(cuda_toolkit.torch_build(torch),
                             cuda_toolkit.TorchBuild("2.9.1+cu128", "12.8", ""))
        with tempfile.TemporaryDirectory() as tmp:
            self.assertIsNone(cuda_toolkit.torch_build(torch_folder(tmp, cuda=False)))

    def test_named_then_installed_of_the_same_major_then_pypi(self):
        cu132 = cuda_toolkit.TorchBuild("2.15.0+cu132", "13.2", "13.2.2")
        cu128 = cuda_toolkit.TorchBuild("2.9.1+cu128", "12.8", "")
        decide = cuda_toolkit.decide
        self.assertEqual(decide(cu132, {"CUDACXX": "/x/nvcc"}, "", "").source, "CUDACXX")
        named = decide(cu132, {"CUDAToolkit_ROOT": "/opt/cuda"}, "", "")
        self.assertEqual((named.nvcc, named.root, named.source),
                         ("/opt/cuda/bin/nvcc", "/opt/cuda", "CUDAToolkit_ROOT"))
        with mock.patch("shutil.which", return_value=None):
            same = decide(cu132, {}, "/usr/local/cuda/bin/nvcc", "13.0")
        self.assertEqual((same.nvcc, same.root, same.source),
                         ("/usr/local/cuda/bin/nvcc", "/usr/local/cuda", "installed"))
        with mock.patch("shutil.which", return_value="/usr/bin/nvcc"):
            self.assertEqual(decide(cu132, {}, "/usr/bin/nvcc", "13.2"),
                             cuda_toolkit.Toolkit(source="installed"))
        self.assertEqual(decide(cu132, {}, "", ""),
                         ("13.2", "cuda-toolkit[nvcc,cccl]==13.2.2", ""))
        other = decide(cu132, {}, "/usr/local/cuda/bin/nvcc", "12.4")
        self.assertEqual(other[:2], ("13.2", "cuda-toolkit[nvcc,cccl]==13.2.2"))
        self.assertIn("the installed CUDA toolkit is 12.4", other[2])
        # A CUDA 12 torch: an installed toolkit of any version, else 13.0 from PyPI with a note.
        with mock.patch("shutil.which", return_value=None):
            self.assertEqual(decide(cu128, {}, "/opt/cuda-13/bin/nvcc", "13.0").source, "installed")
        old = decide(cu128, {}, "", "")
        self.assertEqual(old[:2], ("13.0", "cuda-toolkit[nvcc,cccl]==13.0.*"))
        self.assertIn("PyPI has nvcc only for CUDA 13 and later", old[2])
        unpinned = cuda_toolkit.TorchBuild("2.16.0+cu133", "13.3", "13.2.2")
        self.assertEqual(decide(unpinned, {}, "", "")[1], "cuda-toolkit[nvcc,cccl]==13.3.*")

    def test_the_toolkit_folder_of_links(self):
        with tempfile.TemporaryDirectory() as tmp:
            tree, wheel, root = Path(tmp, "cu13"), Path(tmp, "cudnn"), Path(tmp, "toolkit")
            for path in ("bin/nvcc", "include/cuda.h", "include/cccl/cub/cub.cuh",
                         "lib/libcudart.so.13.2.0", "nvvm/libdevice/libdevice.10.bc"):
                Path(tree, path).parent.mkdir(parents=True, exist_ok=True)
                Path(tree, path).touch()
            Path(tree, "lib/libcudart.so.13").symlink_to("libcudart.so.13.2.0")
            Path(tree, "include/linked").symlink_to(tree / "nvvm")
            Path(wheel, "include").mkdir(parents=True)
            Path(wheel, "include/cuda.h").touch()       # also in tree: the first one wins
            Path(wheel, "include/cudnn.h").touch()
            root.mkdir()
            cuda_toolkit.link_tree([tree, wheel], root)
            self.assertEqual(os.readlink(root / "include/cuda.h"), str(tree / "include/cuda.h"))
            self.assertEqual(os.readlink(root / "include/cudnn.h"), str(wheel / "include/cudnn.h"))
            self.assertTrue((root / "include/cub/cub.cuh").is_symlink())      # cccl at the top
            self.assertTrue((root / "include/linked").is_symlink())           # a linked folder
            self.assertTrue((root / "lib/libcudart.so").is_symlink())         # unversioned
            self.assertEqual(os.readlink(root / "lib64"), "lib")
            self.assertTrue((root / "bin/nvcc").is_symlink())


class MacOS(unittest.TestCase):
    """macOS on Apple silicon (macos.py): decisions tested here, on any system."""

    def test_the_macos_wheel_is_pypis_whatever_the_driver_or_the_request(self):
        for cuda_asked, has_driver in ((False, False), (True, False), (False, True)):
            self.assertEqual(torch_wheel.flavour(cuda_asked, has_driver, system="darwin"),
                             "macos")
        with tempfile.TemporaryDirectory() as tmp:
            roomy_disk(self)
            installer = FakeInstaller(cuda_library=False)
            rc, said = run_install(Path(tmp), installer, system="darwin")
            self.assertEqual(rc, 0, said)
            self.assertEqual(installer.calls, ["pypi"])   # no CPU index, no CUDA libraries
            self.assertIn("macOS", said)
            self.assertEqual(Path(tmp, torch_wheel.RECORD).read_text(),
                             "CPU and MPS, from PyPI (macOS)\n")
            self.assertFalse(Path(tmp, torch_wheel.MARKER).exists())

    def test_missing_formulae_by_program_and_by_homebrews_folders(self):
        with tempfile.TemporaryDirectory() as tmp:
            prefix = Path(tmp)
            self.assertEqual(macos.missing_formulae(prefix, lambda name: None),
                             macos.formula_list(Path(ROOT)))
            for path in ("bin/cmake", "bin/doxygen", "include/catch2/catch_test_macros.hpp",
                         "include/benchmark/benchmark.h", "include/CLI/CLI.hpp",
                         "opt/python@3.13/bin/python3.13"):
                (prefix / path).parent.mkdir(parents=True, exist_ok=True)
                (prefix / path).touch()
            # ninja on the PATH from elsewhere counts; nlohmann-json is still missing.
            found = macos.missing_formulae(prefix, lambda name: "/x/ninja" if name == "ninja" else None)
            self.assertEqual(found, ["nlohmann-json"])

    def test_homebrew_is_found_off_the_path_or_the_commands_are_given(self):
        with tempfile.TemporaryDirectory() as tmp:
            brew = Path(tmp, "bin", "brew")
            brew.parent.mkdir()
            brew.touch(mode=0o755)
            self.assertEqual(macos.brew_program(lambda name: None, tmp), str(brew))
            self.assertIsNone(macos.brew_program(lambda name: None, tmp + "/absent"))
            # Only a brew elsewhere (/usr/local: Intel's, under Rosetta): said, not used.
            with self.assertRaises(messages.SetupError) as raised:
                macos.brew_program(lambda name: "/usr/local/bin/brew", tmp + "/absent")
            self.assertIn("Intel's Homebrew", str(raised.exception))
        with mock.patch.object(macos, "brew_program", return_value=None):
            with self.assertRaises(messages.SetupError) as raised:
                macos.install_formulae(Path(ROOT))
        said = str(raised.exception)
        self.assertIn("install.sh", said)
        self.assertIn("brew install " + " ".join(macos.formula_list(Path(ROOT))), said)

    def test_the_cache_venv_is_made_with_homebrews_newer_python(self):
        prefix = Path("/opt/homebrew")
        self.assertEqual(macos.venv_python(prefix),
                         prefix / "opt" / "python@3.13" / "bin" / "python3.13")
        self.assertIn("python@3.13", macos.formula_list(Path(ROOT)))
        with mock.patch.object(sys, "platform", "darwin"), \
                mock.patch("platform.machine", return_value="x86_64"):
            with self.assertRaises(messages.SetupError) as raised:
                main.main(ROOT, Path("/cache"), ["run", "01"])
        self.assertIn("Rosetta", str(raised.exception))

    def test_brew_installs_only_what_is_missing_and_a_failure_names_the_command(self):
        calls = []

        def run(command, **kwargs):
            calls.append(command)
            if command[1:] == ["--prefix"]:
                return subprocess.CompletedProcess(command, 0, stdout="/opt/homebrew\n")
            return subprocess.CompletedProcess(command, 1)
        with mock.patch.object(macos, "brew_program", return_value="/opt/homebrew/bin/brew"), \
                mock.patch.object(macos, "missing_formulae", return_value=["cli11", "ninja"]), \
                mock.patch.dict(os.environ, {"PATH": "/usr/bin"}), \
                contextlib.redirect_stderr(io.StringIO()):
            with self.assertRaises(messages.SetupError) as raised:
                macos.install_formulae(Path(ROOT), run=run)
            self.assertTrue(os.environ["PATH"].startswith("/opt/homebrew/bin" + os.pathsep))
        self.assertEqual(calls[-1], ["/opt/homebrew/bin/brew", "install", "cli11", "ninja"])
        self.assertIn("brew install cli11 ninja", str(raised.exception))

    def test_the_wheels_openmp_runtime_is_renamed_in_place_and_signed_once(self):
        with tempfile.TemporaryDirectory() as tmp:
            venv = Path(tmp, "venv")
            torch_root = venv / "lib/python3.12/site-packages/torch"
            (torch_root / "lib").mkdir(parents=True)
            dylib = torch_root / "lib/libomp.dylib"
            dylib.touch()
            name = [macos.OPENMP_ORIGINAL]
            calls = []

            def run(command, **kwargs):
                calls.append(command[0])
                if command[0] == "otool":
                    return subprocess.CompletedProcess(command, 0, stdout=f"{dylib}:\n{name[0]}\n")
                if command[0] == "install_name_tool":
                    name[0] = command[2]
                return subprocess.CompletedProcess(command, 0)
            self.assertEqual(macos.openmp_runtime(torch_root, venv, run), dylib)
            self.assertEqual(calls, ["otool", "install_name_tool", "codesign"])
            self.assertEqual(name[0], "@rpath/libomp.dylib")
            calls.clear()
            self.assertEqual(macos.openmp_runtime(torch_root, venv, run), dylib)
            self.assertEqual(calls, ["otool"])   # already renamed: nothing changes
            options = macos.cmake_options(Path("/opt/homebrew"), torch_root / "share/cmake/Torch",
                                          dylib)
            self.assertIn(f"-DOpenMP_omp_LIBRARY={dylib}", options)
            self.assertIn(f"-DOpenMP_CXX_INCLUDE_DIR={torch_root / 'include'}", options)
            self.assertIn("-DCMAKE_PREFIX_PATH=/opt/homebrew", options)
            # No OpenSSL on macOS: CommonCrypto is part of the system (runner/core/system_crypto.h).
            self.assertFalse([o for o in options if "openssl" in o.lower()], options)
            self.assertNotIn("openssl@3", macos.formula_list(Path(ROOT)))
            dylib.unlink()
            with self.assertRaises(messages.SetupError):
                macos.openmp_runtime(torch_root, venv, run)

    @staticmethod
    def gloo_deb(config: str) -> bytes:
        """A .deb as Debian makes it (an ar archive), its data.tar.xz holding Gloo's two headers,
        and what must never be taken out: a link, a file outside usr/include/gloo/, names that
        climb out of it or start at /."""
        data = io.BytesIO()
        with tarfile.open(fileobj=data, mode="w:xz") as tar:
            for name, text in (("./usr/include/gloo/algorithm.h", "#pragma once\n"),
                               ("./usr/include/gloo/config.h", config),
                               ("./usr/lib/libgloo.so.0", "ELF"),
                               ("./usr/include/gloo/../../escaped.h", "x"),
                               ("/usr/include/gloo/absolute.h", "x")):
                info = tarfile.TarInfo(name)
                info.size = len(text.encode())
                tar.addfile(info, io.BytesIO(text.encode()))
            link = tarfile.TarInfo("./usr/include/gloo/link.h")
            link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
            tar.addfile(link)
        deb = b"!<arch>\n"
        for name, body in ((b"debian-binary", b"2.0\n"), (b"control.tar.xz", b"x"),
                           (b"data.tar.xz", data.getvalue())):
            deb += name.ljust(16) + b"0".ljust(12) + b"0".ljust(6) + b"0".ljust(6)
            deb += b"100644".ljust(8) + str(len(body)).encode().ljust(10) + b"`\n" + body
            deb += b"\n" if len(body) % 2 else b""
        return deb

    @staticmethod
    def debians_config() -> str:   # Linux's values, the opposite of macOS's for each
        return "#pragma once\n#define GLOO_VERSION_MAJOR 0\n" + "".join(
            f"#define {name} {1 - value}\n" for name, value in macos.GLOO_MACOS_CONFIG.items())

    def test_gloos_headers_come_from_debians_package_checked_and_set_for_macos(self):
        deb = self.gloo_deb(self.debians_config())
        fetched = []

        def fetch(url):   # the mirror answers with a page; snapshot.debian.org with the file
            fetched.append(url)
            return b"<html>moved</html>" if url == macos.GLOO_URLS[0] else deb
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.object(macos, "GLOO_SHA256", hashlib.sha256(deb).hexdigest()), \
                contextlib.redirect_stderr(io.StringIO()) as said:
            stale = Path(tmp, "gloo", "include", "gloo")   # a copy of Linux's, as once made
            stale.mkdir(parents=True)
            (stale / "algorithm.h").write_text("old")
            (stale / "old.h").write_text("old")
            include = macos.gloo_headers(Path(tmp), fetch)
            self.assertEqual(include, Path(tmp, "gloo", "include"))
            self.assertEqual(fetched, list(macos.GLOO_URLS))
            self.assertEqual(sorted(str(p.relative_to(Path(tmp))) for p in Path(tmp).rglob("*")),
                             ["gloo", "gloo/include", "gloo/include/.torchlings-gloo",
                              "gloo/include/gloo", "gloo/include/gloo/algorithm.h",
                              "gloo/include/gloo/config.h"])   # nothing else, no leftovers
            text = (include / "gloo" / "config.h").read_text()
            self.assertIn("#define GLOO_VERSION_MAJOR 0\n", text)
            for name, value in macos.GLOO_MACOS_CONFIG.items():
                self.assertIn(f"#define {name} {value}\n", text)
            self.assertIn(str(include), said.getvalue())
            fetched.clear()
            self.assertEqual(macos.gloo_headers(Path(tmp), fetch), include)
            self.assertEqual(fetched, [])   # once per machine
            options = macos.cmake_options(Path("/opt/homebrew"), Path("/t/share/cmake/Torch"),
                                          Path("/t/lib/libomp.dylib"), include)
            self.assertIn(f"-DTORCHLINGS_GLOO_INCLUDE_DIR={include}", options)

    def test_gloo_that_cannot_be_had_is_said_and_the_set_up_goes_on(self):
        incomplete = self.gloo_deb("#define GLOO_USE_MPI 1\n")
        cut = self.gloo_deb(self.debians_config())[:-20]

        def cut_off(url):
            raise http.client.IncompleteRead(b"partial")
        for fetch, expected, why in (
                (lambda url: b"<html>moved</html>", None, "SHA-256 differs"),
                (lambda url: incomplete, incomplete, "has no line '#define GLOO_USE_CUDA"),
                (lambda url: cut, cut, "cut short"),
                (cut_off, None, "IncompleteRead")):
            with self.subTest(why=why), tempfile.TemporaryDirectory() as tmp, \
                    mock.patch.object(macos, "GLOO_SHA256",
                                      hashlib.sha256(expected or b"").hexdigest()), \
                    contextlib.redirect_stderr(io.StringIO()) as said:
                self.assertIsNone(macos.gloo_headers(Path(tmp), fetch))
                self.assertIn(why, said.getvalue())
                self.assertIn("everything else works", said.getvalue())
                self.assertFalse(Path(tmp, "gloo", "include").exists())
                self.assertEqual(list(Path(tmp).glob("gloo/tmp*")), [])
        self.assertNotIn("TORCHLINGS_GLOO_INCLUDE_DIR",
                         " ".join(macos.cmake_options(Path("/opt/homebrew"),
                                                      Path("/t/share/cmake/Torch"),
                                                      Path("/t/lib/libomp.dylib"))))

    def test_setup_gives_gloo_to_a_build_configured_without_it(self):
        calls = []

        def run(command, **kwargs):
            calls.append(command)
            return subprocess.CompletedProcess(command, 0)
        with tempfile.TemporaryDirectory() as tmp:
            build = Path(tmp, "build")
            build.mkdir()
            include = Path(tmp, "gloo", "include")
            with mock.patch.object(macos, "gloo_headers", return_value=include) as fetched:
                for line, reconfigured in (
                        ("TORCHLINGS_GLOO_INCLUDE_DIR:PATH=TORCHLINGS_GLOO_INCLUDE_DIR-NOTFOUND",
                         True),
                        (f"TORCHLINGS_GLOO_INCLUDE_DIR:PATH={include}", False),
                        ("CMAKE_BUILD_TYPE:STRING=Debug", True)):
                    calls.clear()
                    (build / "CMakeCache.txt").write_text(line + "\n")
                    macos.add_gloo_to_build(Path(tmp), build, run)
                    self.assertEqual(calls, [["cmake", "-B", str(build),
                                              f"-DTORCHLINGS_GLOO_INCLUDE_DIR={include}"]]
                                     if reconfigured else [], line)
                fetched.return_value = None   # the download failed again: said, nothing run
                calls.clear()
                (build / "CMakeCache.txt").write_text("CMAKE_BUILD_TYPE:STRING=Debug\n")
                macos.add_gloo_to_build(Path(tmp), build, run)
                self.assertEqual(calls, [])

    def test_the_wrapper_sends_intel_macs_rosetta_and_other_systems_elsewhere(self):
        # (system, machine, sysctl.proc_translated, xcode-select's status, what is said)
        for system, machine, translated, xcode, expected in (
                ("Darwin", "x86_64", "exit 1", 0, "this is an Intel Mac"),
                ("Darwin", "x86_64", "echo 1", 0, "runs under Rosetta"),
                ("Darwin", "arm64", "exit 1", 2, "xcode-select --install"),
                ("FreeBSD", "amd64", "exit 1", 0, "not on FreeBSD")):
            with tempfile.TemporaryDirectory() as tmp:
                for name, answer in (
                        ("uname", f'case $1 in -m) echo {machine};; *) echo {system};; esac'),
                        ("sysctl", translated), ("xcode-select", f"exit {xcode}")):
                    Path(tmp, name).write_text(f"#!/bin/sh\n{answer}\n")
                    Path(tmp, name).chmod(0o755)
                env = dict(os.environ, PATH=f"{tmp}:/usr/bin:/bin", TORCHLINGS_LANG="en")
                done = subprocess.run(["sh", str(Path(ROOT, "torchlings")), "run", "01"], env=env,
                                      capture_output=True, text=True)
                self.assertEqual(done.returncode, 3, done.stderr)
                self.assertIn(expected, done.stderr)
                if "Rosetta" in expected:   # the command to paste names this course's wrapper
                    self.assertIn(f'arch -arm64 /bin/sh "{ROOT}/torchlings" run 01', done.stderr)


class Messages(unittest.TestCase):
    def test_both_languages_say_the_same_things_with_the_same_fields(self):
        import string
        self.assertEqual(set(messages.ENGLISH), set(messages.KOREAN))
        for key in messages.ENGLISH:
            fields = [{f for _, f, _, _ in string.Formatter().parse(table[key]) if f}
                      for table in (messages.ENGLISH, messages.KOREAN)]
            self.assertEqual(fields[0], fields[1], key)


if __name__ == "__main__":
    os.environ.pop("TORCHLINGS_LANG", None)
    unittest.main(verbosity=2)
