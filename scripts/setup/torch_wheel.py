"""The torch wheel of the course's cache venv: which one, and how it is installed.

./torchlings runs this once per machine, when no LibTorch was found (step 2 of its set-up):

    python3 scripts/setup/torch_wheel.py --venv VENV --spec SPEC [--cuda] [--korean]

Decisions, each printed as it is made:
  * CPU or CUDA. A machine without an NVIDIA driver gets PyTorch's CPU-only wheel (about 200 MB
    to download, under 1 GB installed, no CUDA toolkit needed to build): the CUDA wheel would bring
    about 3 GB of CUDA libraries that nothing there can use. --cuda (./torchlings setup --cuda, and
    the course's own CI) or a driver asks for the CUDA wheel.
  * Where from. The CPU wheel lives on PyTorch's own index (download.pytorch.org/whl/cpu), which
    not every network reaches: one quick try (no retries, a short timeout), then PyPI's wheel.
  * What of it. From PyPI, torch and the dependencies it declares except triton: triton compiles
    Python code for torch.compile, which C++ never calls (1 GB installed).
  * Whether it fits. Before pip starts, the free space of the venv's disk is compared with what
    the install needs; short of it, one message names the folder and both figures.
  * What was chosen, and why: one line in VENV/.torchlings-wheel, which configure records for
    `./torchlings doctor` (torchlings_config.json's torch_wheel).
  * Whether an install finished. VENV/.torchlings-installing exists while pip works and is removed
    when everything is installed; ./torchlings removes a venv that still has it (a download cut
    short, a full disk) instead of taking it for a working one.

Exit status: 0 installed; 3 not (the message says why), as ./torchlings uses it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

CPU_INDEX = "https://download.pytorch.org/whl/cpu"
MARKER = ".torchlings-installing"
RECORD = ".torchlings-wheel"
# Space an install takes in the venv, pip's unpacking included, with some margin (measured:
# the CPU wheel 0.7 GB installed; PyPI's CUDA wheel without triton 4.3 GB, torch 2.15).
NEEDED_BYTES = {"cpu": 1_500_000_000, "cuda": 6_000_000_000}
# Dependencies a C++ course never uses.
SKIPPED = ("triton",)
# Files whose presence means an NVIDIA driver is installed (Linux, and WSL2's driver from Windows).
DRIVER_FILES = ("/proc/driver/nvidia/version", "/dev/nvidiactl", "/usr/lib/wsl/lib/libcuda.so.1")

MESSAGES = {
    "cpu": ("no NVIDIA driver here: installing PyTorch's CPU-only torch wheel (about 200 MB; "
            "later, with a GPU: ./torchlings setup --cuda)",
            "NVIDIA 드라이버가 없으므로 PyTorch의 CPU 전용 torch 휠을 설치합니다(약 200 MB. "
            "나중에 GPU가 생기면: ./torchlings setup --cuda)"),
    "cuda": ("installing the torch wheel with its CUDA libraries from PyPI (about 3 GB to "
             "download, 4.5 GB installed; once per machine)",
             "PyPI에서 CUDA 라이브러리를 포함한 torch 휠을 설치합니다(받는 양 약 3 GB, "
             "설치 후 4.5 GB, 컴퓨터마다 한 번)"),
    "fallback": ("PyTorch's CPU wheel index ({index}) cannot be reached from here; installing "
                 "PyPI's torch wheel instead, with its CUDA libraries (about 3 GB to download)",
                 "이곳에서는 PyTorch의 CPU 휠 색인({index})에 닿지 않습니다. 대신 PyPI의 torch 휠을 "
                 "CUDA 라이브러리와 함께 설치합니다(받는 양 약 3 GB)"),
    "space": ("not enough free space for the torch wheel in {folder}: {free:.1f} GB free, about "
              "{needed:.1f} GB needed. Free some space there, or set XDG_CACHE_HOME to a folder on "
              "a larger disk",
              "torch 휠을 설치할 공간이 부족합니다: {folder}. 남은 공간 {free:.1f} GB, 필요한 공간 약 "
              "{needed:.1f} GB. 공간을 비우거나 XDG_CACHE_HOME을 더 큰 디스크의 폴더로 지정하세요"),
    "pip": ("pip could not install '{spec}' into {venv} (see the messages above).\n"
            "  Alternatives: set LIBTORCH to an unpacked libtorch archive, or Torch_DIR to "
            "<libtorch>/share/cmake/Torch",
            "pip로 설치하지 못했습니다: '{spec}' (설치할 곳: {venv}, 위의 메시지를 보세요).\n"
            "  대안: LIBTORCH에 압축을 푼 libtorch 아카이브를, 또는 Torch_DIR에 "
            "<libtorch>/share/cmake/Torch를 지정하세요"),
}


def say(key: str, korean: bool, **values: object) -> None:
    english, hangul = MESSAGES[key]
    print("torchlings: " + (hangul if korean else english).format(**values), file=sys.stderr)


def driver_present(files: tuple[str, ...] = DRIVER_FILES) -> bool:
    """Whether an NVIDIA driver is installed: one of its files, or nvidia-smi on PATH."""
    return any(os.path.exists(f) for f in files) or shutil.which("nvidia-smi") is not None


def flavour(cuda_asked: bool, has_driver: bool) -> str:
    return "cuda" if cuda_asked or has_driver else "cpu"


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
        self.shows = ["--progress-bar=on"] if on_terminal else ["--quiet", "--progress-bar=off"]

    def run(self, args: list[str], quiet: bool = False) -> bool:
        command = [self.python, "-m", "pip", "install", "--disable-pip-version-check", *args]
        output = subprocess.DEVNULL if quiet else 2   # pip speaks on stderr, as ./torchlings does
        return subprocess.run(command, stdout=output, stderr=output).returncode == 0

    def requires(self) -> list[str]:
        script = "import importlib.metadata as m; print('\\n'.join(m.requires('torch') or []))"
        result = subprocess.run([self.python, "-c", script], capture_output=True, text=True)
        return result.stdout.splitlines() if result.returncode == 0 else []

    def cpu_wheel(self) -> bool:
        # One quick try: an index that cannot be reached fails within seconds, not minutes.
        return self.run(["--index-url", CPU_INDEX, "--timeout", "10", "--retries", "0",
                         *self.shows, self.spec, "numpy"], quiet=True)

    def pypi_wheel(self) -> bool:
        if not self.run([*self.shows, "--no-deps", self.spec]):
            return False
        return self.run([*self.shows, *kept_requirements(self.requires()), "numpy"])


def install(venv: Path, spec: str, cuda_asked: bool, korean: bool, installer: Installer,
            has_driver: bool | None = None) -> int:
    chosen = flavour(cuda_asked, driver_present() if has_driver is None else has_driver)
    short = short_of_space(venv, NEEDED_BYTES[chosen])
    if short:
        say("space", korean, folder=venv, free=short[0], needed=short[1])
        return 3
    marker = venv / MARKER
    marker.touch()
    say(chosen, korean)
    why = "asked for (--cuda)" if cuda_asked else (
        "an NVIDIA driver is installed" if chosen == "cuda" else "no NVIDIA driver")
    done = chosen == "cpu" and installer.cpu_wheel()
    record = f"CPU-only, from {CPU_INDEX} ({why})"
    if not done:
        if chosen == "cpu":
            say("fallback", korean, index=CPU_INDEX)
            why = f"no NVIDIA driver, but {CPU_INDEX} could not be reached"
        done = installer.pypi_wheel()
        record = f"with CUDA, from PyPI, without triton ({why})"
    if not done:
        say("pip", korean, spec=spec, venv=venv)
        return 3
    (venv / RECORD).write_text(record + "\n")
    marker.unlink()
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--venv", type=Path, required=True, help="the venv (made already)")
    parser.add_argument("--spec", default="torch", help="pip requirement, e.g. torch==2.11.0")
    parser.add_argument("--cuda", action="store_true", help="the CUDA wheel, even without a driver")
    parser.add_argument("--korean", action="store_true", help="messages in Korean")
    args = parser.parse_args(argv)
    installer = Installer(args.venv, args.spec, sys.stderr.isatty())
    return install(args.venv, args.spec, args.cuda, args.korean, installer)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
