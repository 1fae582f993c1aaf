"""The torch wheel of the course's cache venv: which one, and how it is installed.

The set-up (main.py) calls install() once per machine, when no LibTorch was found (step 2).

Decisions, each printed as it is made:
  * CPU or CUDA. A machine without an NVIDIA driver gets PyTorch's CPU-only wheel (about 200 MB
    to download, under 1 GB installed, no CUDA toolkit needed to build): the CUDA wheel would bring
    about 3 GB of CUDA libraries that nothing there can use. --cuda (./torchlings setup --cuda, and
    the course's own CI) or a driver asks for the CUDA wheel.
  * Where from. The CPU wheel lives on PyTorch's own index (download.pytorch.org/whl/cpu), which
    not every network reaches: one quick look at its page of torch (no retries, a short timeout),
    then, where it answers, the install with pip's own progress and messages; else, or where that
    install fails, PyPI's wheel (the free space checked again: it is larger).
  * What of it. From PyPI, torch and the dependencies it declares except triton: triton compiles
    Python code for torch.compile, which C++ never calls (1 GB installed).
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
# Space an install takes on the cache folder's disk at its peak, with some margin: pip downloads
# every wheel before it installs any, into a folder beside the venv (not $TMPDIR, often a small
# RAM disk), and keeps no copy afterwards (--no-cache-dir). PyPI's CUDA wheel without triton,
# torch 2.15: about 3 GB downloaded (3.5 GB for a bare root's whole first command, its packages
# included), 4.4 GB installed (measured); the CPU wheel: a few hundred MB.
NEEDED_BYTES = {"cpu": 1_500_000_000, "cuda": 8_500_000_000}
# Dependencies a C++ course never uses.
SKIPPED = ("triton",)
# Files whose presence means an NVIDIA driver is installed (Linux, and WSL2's driver from Windows).
DRIVER_FILES = ("/proc/driver/nvidia/version", "/dev/nvidiactl", "/usr/lib/wsl/lib/libcuda.so.1")

def driver_present(files: tuple[str, ...] = DRIVER_FILES) -> bool:
    """Whether an NVIDIA driver is installed: one of its files, or nvidia-smi on PATH."""
    return any(os.path.exists(f) for f in files) or shutil.which("nvidia-smi") is not None


def flavour(cuda_asked: bool, has_driver: bool, cpu_asked: bool = False) -> str:
    """The CPU wheel where there is no driver, or where the build is CPU-only (the cpu-only
    preset, which compiles no kernel: a driver then changes nothing)."""
    return "cuda" if cuda_asked or (has_driver and not cpu_asked) else "cpu"


def kept_requirements(requires: list[str]) -> list[str]:
    """torch's declared dependencies (Requires-Dist lines) that the course installs: all but the
    optional extras and SKIPPED. Markers stay: pip evaluates them."""
    kept = []
    for requirement in requires:
        if "extra ==" in requirement.replace("extra==", "extra =="):
            continue
        name = requirement.split(";")[0].strip()
        for separator in "<>=!~[ (":
            name = name.split(separator)[0]
        if name.lower().replace("_", "-") not in SKIPPED:
            kept.append(requirement)
    return kept


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

    def pypi_wheel(self) -> bool:
        if not self.run([*self.shows, "--no-deps", self.spec]):
            return False
        requires = self.requires()
        if requires is None:   # torch installed but unreadable: its dependencies would be missing
            return False
        # --no-warn-conflicts: else pip ends a successful install with "ERROR: ... torch requires
        # triton, which is not installed", the one dependency left out on purpose.
        return self.run([*self.shows, "--no-warn-conflicts", *kept_requirements(requires), "numpy"])


def install(venv: Path, spec: str, cuda_asked: bool, installer: Installer,
            has_driver: bool | None = None, cpu_asked: bool = False) -> None:
    """Installs, or raises SetupError with the message that says why not."""
    chosen = flavour(cuda_asked, driver_present() if has_driver is None else has_driver,
                     cpu_asked)
    short = short_of_space(venv, NEEDED_BYTES[chosen])
    if short:
        raise fail("wheel_space", folder=venv, free=short[0], needed=short[1])
    marker = venv / MARKER
    marker.touch()
    say("wheel_" + chosen)
    why = "asked for (--cuda)" if cuda_asked else (
        "an NVIDIA driver is installed" if chosen == "cuda" else "no NVIDIA driver")
    done = reachable = False
    if chosen == "cpu":
        reachable = installer.cpu_index_reachable()
        done = reachable and installer.cpu_wheel()
        record = f"CPU-only, from {CPU_INDEX} ({why})"
    if not done:
        if chosen == "cpu":
            say("wheel_cpu_failed" if reachable else "wheel_fallback", index=CPU_INDEX)
            why = (f"no NVIDIA driver, but the CPU-only wheel failed to install from {CPU_INDEX}"
                   if reachable else f"no NVIDIA driver, but {CPU_INDEX} could not be reached")
            # PyPI's wheel needs 8.5 GB, not 1.5: the space is checked again, and the marker kept
            # (pip may have installed some of the CPU wheel's packages).
            short = short_of_space(venv, NEEDED_BYTES["cuda"])
            if short:
                raise fail("wheel_space", folder=venv, free=short[0], needed=short[1])
        done = installer.pypi_wheel()
        record = f"with CUDA, from PyPI, without triton ({why})"
    if not done:
        raise fail("wheel_pip", spec=spec, venv=venv)
    (venv / RECORD).write_text(record + "\n")
    marker.unlink()
