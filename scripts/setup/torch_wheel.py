"""The torch wheel of the course's cache venv: which one, and how it is installed.

The set-up (main.py) calls install() once per machine, when no LibTorch was found (step 2).

Decisions, each printed as it is made:
  * macOS. PyPI's wheel, the only one for a Mac (CPU, and Apple's GPU through MPS; no CUDA), with
    its declared dependencies; none of the decisions below applies there.
  * CPU or CUDA. A machine without an NVIDIA driver gets PyTorch's CPU-only wheel (about 200 MB
    to download, under 1 GB installed, no CUDA toolkit needed to build): the CUDA wheel would bring
    about 3 GB of CUDA libraries that nothing there can use. --cuda (./torchlings setup --cuda, and
    the course's own CI) or a driver asks for the CUDA wheel.
  * Where from. The CPU wheel lives on PyTorch's own index (download.pytorch.org/whl/cpu), which
    not every network reaches: one quick look at its page of torch (no retries, a short timeout),
    then, where it answers, the install with pip's own progress and messages; else, or where that
    install fails, PyPI's wheel, which is built with CUDA.
  * What of it. Without a driver, PyPI's wheel is used as a CPU-only LibTorch: torch alone (about
    550 MB to download, 1.3 GB installed) and the two small libraries libtorch_cpu.so itself needs
    (the CUDA runtime and CUPTI, which its profiler links: about 15 MB), but not the 3 GB of CUDA
    libraries that only libtorch_cuda.so uses. The course then links libtorch_cpu.so and
    libc10.so alone, never libtorch_cuda.so, and compiles no kernel; the install is proved by
    loading libtorch_cpu.so once. The marker CPU_USE in the venv says so to configure (CMake) and
    to the CUDA toolkit's choice (none is needed). Python's `import torch` needs the whole wheel,
    so torchrun does not start from such a venv (lesson 10 runs as one process and says why).
    Where that load fails (a torch whose libtorch_cpu.so needs more), where PyPI's torch is not
    built with CUDA (Linux on ARM), and with a driver or --cuda: torch and the dependencies it
    declares except triton, which compiles Python code for
    torch.compile, which C++ never calls (1 GB installed).
  * Whether it fits. Before pip starts, the free space of the venv's disk is compared with what
    the install needs; short of it, one message names the folder and both figures.
  * What was chosen, and why: one line in VENV/.torchlings-wheel, which configure records for
    `./torchlings doctor` (torchlings_config.json's torch_wheel).
  * Whether an install finished. VENV/.torchlings-installing exists while pip works and is removed
    when everything is installed; ./torchlings removes a venv that still has it (a download cut
    short, a full disk) instead of taking it for a working one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from messages import fail, say


def pip_runs(python: str) -> bool:
    """Whether this Python's pip starts (a venv whose Python was upgraded or removed has none)."""
    try:
        return subprocess.run([python, "-m", "pip", "--version"],
                              capture_output=True).returncode == 0
    except OSError:  # no such program, or not one that runs
        return False


CPU_INDEX = "https://download.pytorch.org/whl/cpu"
MARKER = ".torchlings-installing"   # main.py's TORCH_MARKER too
RECORD = ".torchlings-wheel"
# PyPI's CUDA wheel installed without its CUDA libraries, used as a CPU-only LibTorch; read by
# cmake/TorchlingsTorch.cmake (the same name), cuda_toolkit.py and main.py.
CPU_USE = ".torchlings-cpu-use"
# What libtorch_cpu.so needs besides libc10.so and the system's libraries (its DT_NEEDED entries,
# torch 2.9 to 2.15): libcudart and libcupti. Wheels built with CUDA 12 declare their packages
# (nvidia-cuda-runtime-cu12, nvidia-cuda-cupti-cu12); later ones declare NVIDIA's metapackage
# cuda-toolkit with one extra per library, of which these two are kept.
CPU_USE_NEEDS = ("nvidia-cuda-runtime", "nvidia-cuda-cupti")
CPU_USE_EXTRAS = ("cudart", "cupti")
# Space an install takes on the cache folder's disk at its peak, with some margin: pip downloads
# every wheel before it installs any, into a folder beside the venv (not $TMPDIR, often a small
# RAM disk), and keeps no copy afterwards (--no-cache-dir). PyPI's CUDA wheel without triton,
# torch 2.15: about 3 GB downloaded (3.5 GB for a bare root's whole first command, its packages
# included), 4.4 GB installed (measured); the CPU wheel: a few hundred MB.
# PyPI's wheel used as a CPU-only LibTorch: 553 MB downloaded, 1.3 GB installed (torch 2.15).
# macOS's wheel (CPU and MPS): 139 MB downloaded, about 500 MB installed (torch 2.15).
NEEDED_BYTES = {"cpu": 1_500_000_000, "cpu-use": 2_500_000_000, "cuda": 8_500_000_000,
                "macos": 1_500_000_000}
# Dependencies a C++ course never uses.
SKIPPED = ("triton",)
# Files whose presence means an NVIDIA driver is installed (Linux, and WSL2's driver from Windows).
DRIVER_FILES = ("/proc/driver/nvidia/version", "/dev/nvidiactl", "/usr/lib/wsl/lib/libcuda.so.1")

def driver_present(files: tuple[str, ...] = DRIVER_FILES) -> bool:
    """Whether an NVIDIA driver is installed: one of its files, or nvidia-smi on PATH."""
    return any(os.path.exists(f) for f in files) or shutil.which("nvidia-smi") is not None


def flavour(cuda_asked: bool, has_driver: bool, cpu_asked: bool = False,
            system: str = sys.platform) -> str:
    """macOS: PyPI's wheel, the only one there (CPU and MPS, no CUDA). Elsewhere the CPU wheel
    where there is no driver, or where the build is CPU-only (the cpu-only preset, which compiles
    no kernel: a driver then changes nothing)."""
    if system == "darwin":
        return "macos"
    return "cuda" if cuda_asked or (has_driver and not cpu_asked) else "cpu"


def kept_requirements(requires: list[str]) -> list[str]:
    """torch's declared dependencies (Requires-Dist lines) that the course installs: all but the
    optional extras and SKIPPED. Markers stay: pip evaluates them."""
    return [requirement for requirement in requires
            if "extra ==" not in requirement.replace("extra==", "extra ==")
            and requirement_name(requirement) not in SKIPPED]


def requirement_name(requirement: str) -> str:
    name = requirement.split(";")[0].strip()
    for separator in "<>=!~[ (":
        name = name.split(separator)[0]
    return name.lower().replace("_", "-")


def cpu_use_requirements(requires: list[str]) -> list[str]:
    """The dependencies torch declares that libtorch_cpu.so needs, with their pins and markers:
    the packages CPU_USE_NEEDS names, or cuda-toolkit[...] cut to the extras CPU_USE_EXTRAS;
    nothing of cuDNN, cuBLAS, NCCL..., which only libtorch_cuda.so loads."""
    needed = []
    for requirement in kept_requirements(requires):   # no optional extras
        name = requirement_name(requirement)
        if name.startswith(CPU_USE_NEEDS):
            needed.append(requirement)
        elif name == "cuda-toolkit" and "[" in requirement.split(";")[0]:
            head, rest = requirement.split("[", 1)
            extras, tail = rest.split("]", 1)
            kept = [extra.strip() for extra in extras.split(",") if extra.strip() in CPU_USE_EXTRAS]
            if kept:
                needed.append(f"{head}[{','.join(kept)}]{tail}")
    return needed


def used_as_cpu_only(torch_root: Path) -> bool:
    """Whether the torch package at torch_root (<venv>/lib/python3.X/site-packages/torch) is
    PyPI's CUDA wheel installed without its CUDA libraries (the CPU_USE marker of its venv)."""
    parents = torch_root.parents
    return len(parents) > 3 and (parents[3] / CPU_USE).exists()


def short_of_space(folder: Path, needed: int) -> tuple[float, float] | None:
    """(free, needed) in GB when the disk holding folder (or its nearest existing parent) has less
    than needed bytes free; None when it fits."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    free = shutil.disk_usage(probe).free
    return None if free >= needed else (free / 1e9, needed / 1e9)


class Installer:
    """The pip calls, in the venv's own Python; run() is replaced in the unit tests."""

    def __init__(self, venv: Path, spec: str, on_terminal: bool):
        self.venv = venv
        self.python = str(venv / "bin" / "python")
        self.spec = spec
        self.scratch = venv / ".pip-scratch"   # pip's TMPDIR, removed after each call
        self.shows = ["--progress-bar=on"] if on_terminal else ["--quiet", "--progress-bar=off"]

    def run(self, args: list[str], quiet: bool = False, only_cpu_index: bool = False,
            verb: str = "install") -> bool:
        command = [self.python, "-m", "pip", verb, "--disable-pip-version-check", *args]
        output = subprocess.DEVNULL if quiet else 2   # pip speaks on stderr, as ./torchlings does
        environ = dict(os.environ)
        if verb == "install":
            # No copy of the wheels kept in pip's cache (about 3 GB more on the same disk), and the
            # downloads unpacked beside the venv, whose free space was checked.
            command.insert(command.index("--disable-pip-version-check") + 1, "--no-cache-dir")
            self.scratch.mkdir(exist_ok=True)
            environ["TMPDIR"] = str(self.scratch)
        if only_cpu_index:
            # --index-url replaces pip.conf's index-url, not its extra-index-url: an extra index
            # that has torch (a lab's cu12x index) would win with a CUDA wheel, triton and all.
            # pip reads a blank PIP_EXTRA_INDEX_URL as "none" (an empty one it ignores).
            environ["PIP_EXTRA_INDEX_URL"] = " "
        try:
            return subprocess.run(command, stdout=output, stderr=output,
                                  env=environ).returncode == 0
        finally:
            shutil.rmtree(self.scratch, ignore_errors=True)

    def requires(self) -> list[str] | None:
        script = "import importlib.metadata as m; print('\\n'.join(m.requires('torch') or []))"
        result = subprocess.run([self.python, "-c", script], capture_output=True, text=True)
        return result.stdout.splitlines() if result.returncode == 0 else None

    def cpu_index_reachable(self) -> bool:
        # One quick look at the index's page of torch, by pip itself (pip.conf's proxy and
        # certificates apply): an index that cannot be reached fails within seconds, not
        # minutes, and silently: the fallback message says it in one line.
        return self.run(["versions", "--index-url", CPU_INDEX, "--timeout", "10", "--retries", "0",
                         "torch"], quiet=True, only_cpu_index=True, verb="index")

    def cpu_wheel(self) -> bool:
        # The index answered: the download shows its progress, pip's usual retries apply, and a
        # failure keeps pip's own messages (a version the index lacks, a full disk).
        return self.run(["--index-url", CPU_INDEX, *self.shows, self.spec, "numpy"],
                        only_cpu_index=True)

    def cpu_use_wheel(self) -> str:
        """torch without its dependencies, then the two libraries libtorch_cpu.so needs; proved by
        loading libtorch_cpu.so (a torch that needs more fails here, not in the first build).
        "cpu-use" when that worked; "pip" when pip failed (the network, a version PyPI lacks, a
        full disk: pip's messages are on screen); "not-cuda" when PyPI's torch is not built with
        CUDA (Linux on ARM), which then needs only its own declared dependencies; "no-load" when
        libtorch_cpu.so does not load without the CUDA libraries."""
        if not self.run([*self.shows, "--no-deps", self.spec]):
            return "pip"
        if not self.has_cuda_library():
            return "not-cuda"
        requires = self.requires()
        if requires is None:
            return "no-load"
        needed = cpu_use_requirements(requires)
        # --no-warn-conflicts: pip would else end with "ERROR: ... torch requires ..., which is
        # not installed" for every dependency left out on purpose.
        if needed and not self.run([*self.shows, "--no-warn-conflicts", *needed]):
            return "pip"
        return "cpu-use" if self.cpu_library_loads() else "no-load"

    def has_cuda_library(self) -> bool:
        return any(self.venv.glob("lib/python3*/site-packages/torch/lib/libtorch_cuda.so"))

    def cpu_library_loads(self) -> bool:
        # find_spec finds the package without running torch/__init__.py (which needs the CUDA
        # libraries); ctypes loads the library as a program linking it would.
        script = ("import ctypes, importlib.util, os; "
                  "folder = importlib.util.find_spec('torch').submodule_search_locations[0]; "
                  "ctypes.CDLL(os.path.join(folder, 'lib', 'libtorch_cpu.so'))")
        return subprocess.run([self.python, "-c", script],
                              capture_output=True).returncode == 0

    def pypi_wheel(self) -> bool:
        # Also after cpu_use_wheel: pip skips the torch already there and adds the rest.
        if not self.run([*self.shows, "--no-deps", self.spec]):
            return False
        requires = self.requires()
        if requires is None:   # torch installed but unreadable: its dependencies would be missing
            return False
        # --no-warn-conflicts: else pip ends a successful install with "ERROR: ... torch requires
        # triton, which is not installed", the one dependency left out on purpose.
        return self.run([*self.shows, "--no-warn-conflicts", *kept_requirements(requires), "numpy"])


def install(venv: Path, spec: str, cuda_asked: bool, installer: Installer,
            has_driver: bool | None = None, cpu_asked: bool = False,
            system: str = sys.platform) -> None:
    """Installs, or raises SetupError with the message that says why not."""
    chosen = flavour(cuda_asked, driver_present() if has_driver is None else has_driver,
                     cpu_asked, system)
    short = short_of_space(venv, NEEDED_BYTES[chosen])
    if short:
        raise fail("wheel_space", folder=venv, free=short[0], needed=short[1])
    marker = venv / MARKER
    marker.touch()
    (venv / CPU_USE).unlink(missing_ok=True)   # a marker of an earlier install, cut short
    say("wheel_" + chosen)
    why = "macOS" if chosen == "macos" else "asked for (--cuda)" if cuda_asked else (
        "an NVIDIA driver is installed" if chosen == "cuda" else "no NVIDIA driver")
    done = reachable = False
    if chosen == "cpu":
        reachable = installer.cpu_index_reachable()
        done = reachable and installer.cpu_wheel()
        record = f"CPU-only, from {CPU_INDEX} ({why})"
        if not done:
            say("wheel_cpu_failed" if reachable else "wheel_fallback", index=CPU_INDEX)
            why = (f"no NVIDIA driver, and the CPU-only wheel failed to install from {CPU_INDEX}"
                   if reachable else f"no NVIDIA driver, and {CPU_INDEX} could not be reached")
            # The space is checked again (pip may have installed some of the CPU wheel's
            # packages: the marker stays).
            short = short_of_space(venv, NEEDED_BYTES["cpu-use"])
            if short:
                raise fail("wheel_space", folder=venv, free=short[0], needed=short[1])
            outcome = installer.cpu_use_wheel()
            if outcome == "pip":
                raise fail("wheel_pip", spec=spec, venv=venv)
            done = outcome == "cpu-use"
            record = f"PyPI's CUDA wheel used as CPU-only, without its CUDA libraries ({why})"
            if done:
                (venv / CPU_USE).touch()
            elif outcome == "no-load":
                say("wheel_cpu_use_failed")
                short = short_of_space(venv, NEEDED_BYTES["cuda"])
                if short:
                    raise fail("wheel_space", folder=venv, free=short[0], needed=short[1])
    if not done:
        done = installer.pypi_wheel()
        record = (f"with CUDA, from PyPI, without triton ({why})" if installer.has_cuda_library()
                  else "CPU and MPS, from PyPI (macOS)" if chosen == "macos"
                  else f"CPU-only, from PyPI ({why})")
    if not done:
        raise fail("wheel_pip", spec=spec, venv=venv)
    (venv / RECORD).write_text(record + "\n")
    marker.unlink()
