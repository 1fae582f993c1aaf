"""Step 1 of the set-up on macOS (Apple silicon): Homebrew's formulae, Apple's Clang, and the OpenMP
runtime that the torch wheel brings.

  * Formulae. brew-packages.txt beside this file is the list. The missing ones are installed with
    `brew install`, which needs no root. Without Homebrew, one message gives the two commands to
    run (Homebrew's installer, then `brew install` with the list).
  * Compiler. Apple's Clang from the Command Line Tools, which the wrapper asks for before Python is
    started, since macOS's python3 is a stub until they are installed.
  * OpenMP. Lesson 09's CPU twins use OpenMP, and so does libtorch_cpu.dylib. The torch wheel
    brings its own libomp.dylib, and two OpenMP runtimes in one process abort it. So the course
    links the wheel's runtime, with Apple's Clang's `-Xclang -fopenmp` and the wheel's omp.h.
    The wheel's libomp.dylib names itself /opt/llvm-openmp/lib/libomp.dylib, where PyTorch built
    it. A program linked with it as it is would look for it there. So, once, in the course's own
    cache venv, it is renamed @rpath/libomp.dylib (`install_name_tool -id`) and signed again
    (`codesign --sign -`: every arm64 binary must be signed). A program then finds the very file
    that libtorch_cpu.dylib loads. A LibTorch from elsewhere (Torch_DIR, LIBTORCH, python3's
    torch) gets the same change, and the set-up says so: a renamed copy would be a second
    runtime. Python's torch is not affected, since libtorch_cpu.dylib finds the file by its path.

Nothing here has been run on a Mac by the course's own CI. The cross-build
(scripts/ci/macos_cross_check.sh) links against the same wheel. The GitHub workflow
(.github/workflows/macos.yml) runs the README's two commands on a macos-14 runner.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from messages import fail, say

# Where Homebrew lives on Apple silicon. Its installer does not put brew on the PATH of the shell
# that ran it, so the folder is looked in first. A brew elsewhere (/usr/local) is the Intel
# Homebrew, which runs under Rosetta and installs x86_64 libraries that an arm64 build cannot link.
BREW_PREFIX = "/opt/homebrew"
# The Python the cache venv is made with: torch 2.9 and newer have wheels for 3.10 and newer only.
VENV_PYTHON = ("python@3.13", "python3.13")
OPENMP_NAME = "@rpath/libomp.dylib"
OPENMP_ORIGINAL = "/opt/llvm-openmp/lib/libomp.dylib"   # the wheel's own name for it


def formula_list(root: Path) -> list[str]:
    lines = (root / "scripts" / "setup" / "brew-packages.txt").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def brew_program(which=shutil.which, prefix: str = BREW_PREFIX) -> str | None:
    """Homebrew's brew under `prefix`; None when there is none (SetupError for an Intel one)."""
    candidate = os.path.join(prefix, "bin", "brew")
    if os.access(candidate, os.X_OK):
        return candidate
    found = which("brew")
    if found:
        raise fail("intel_homebrew", brew=found, prefix=prefix)
    return None


def missing_formulae(prefix: Path, have_program=shutil.which) -> list[str]:
    """The formulae the course cannot do without that are not installed under Homebrew's prefix
    (programs may come from elsewhere on the PATH too)."""
    def program(name: str) -> bool:
        return have_program(name) is not None or (prefix / "bin" / name).exists()

    def header(*paths: str) -> bool:
        return any((prefix / "include" / path).exists() for path in paths)

    needed = [("cmake", program("cmake")), ("ninja", program("ninja")),
              ("catch2", header("catch2/catch_test_macros.hpp", "catch2/catch.hpp")),
              ("google-benchmark", header("benchmark/benchmark.h")),
              ("doxygen", program("doxygen")), ("cli11", header("CLI/CLI.hpp")),
              ("nlohmann-json", header("nlohmann/json.hpp")),
              ("openssl@3", (prefix / "opt" / "openssl@3" / "include" / "openssl" / "evp.h").exists()),
              (VENV_PYTHON[0], venv_python(prefix).exists())]
    return [name for name, present in needed if not present]


def venv_python(prefix: Path) -> Path:
    """Homebrew's Python that makes the cache venv (VENV_PYTHON)."""
    return prefix / "opt" / VENV_PYTHON[0] / "bin" / VENV_PYTHON[1]


def brew_prefix(brew: str, run=subprocess.run) -> Path:
    answer = run([brew, "--prefix"], capture_output=True, text=True)
    if answer.returncode != 0 or not answer.stdout.strip():
        raise fail("brew_prefix_failed", brew=brew)
    return Path(answer.stdout.strip())


def install_formulae(root: Path, which=shutil.which, run=subprocess.run) -> Path:
    """Installs the missing formulae; returns Homebrew's prefix, whose bin/ is put first on PATH."""
    formulae = formula_list(root)
    brew = brew_program(which)
    if brew is None:
        raise fail("no_homebrew", formulae=" ".join(formulae))
    prefix = brew_prefix(brew, run)
    bin_dir = str(prefix / "bin")
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    missing = missing_formulae(prefix, which)
    if missing:
        shown = "".join(" " + name for name in missing)
        say("installing_formulae", missing=shown)
        if run([brew, "install", *missing]).returncode != 0:
            raise fail("brew_failed", formulae=shown)
    return prefix


def install_name(dylib: Path, run=subprocess.run) -> str:
    """The name a dylib gives itself (its LC_ID_DYLIB), as `otool -D` prints it; "" if unknown."""
    answer = run(["otool", "-D", str(dylib)], capture_output=True, text=True)
    lines = answer.stdout.splitlines() if answer.returncode == 0 else []
    return lines[1].strip() if len(lines) > 1 else ""


def openmp_runtime(torch_root: Path, venv: Path, run=subprocess.run) -> Path:
    """The libomp.dylib that the course's programs link: the wheel's own file, renamed
    @rpath/libomp.dylib once (a copy would be a second runtime in the same process)."""
    source = torch_root / "lib" / "libomp.dylib"
    if not source.exists():
        raise fail("no_wheel_openmp", path=source)
    if install_name(source, run) == OPENMP_NAME:
        return source
    if venv not in torch_root.parents:   # a LibTorch of the learner's own: say what changes
        say("renaming_openmp", path=source)
    for command in (["install_name_tool", "-id", OPENMP_NAME, str(source)],
                    ["codesign", "--force", "--sign", "-", str(source)]):
        if run(command, capture_output=True).returncode != 0:
            raise fail("openmp_rename_failed", path=source)
    return source


def cmake_options(prefix: Path, torch_dir: Path, openmp: Path) -> list[str]:
    """What configure adds on macOS: Homebrew's prefix for the packages, its keg-only OpenSSL,
    and OpenMP as above (FindOpenMP alone would look for Homebrew's libomp)."""
    torch_root = Path(os.path.normpath(torch_dir / ".." / ".." / ".."))
    return [f"-DCMAKE_PREFIX_PATH={prefix}",
            f"-DOPENSSL_ROOT_DIR={prefix / 'opt' / 'openssl@3'}",
            "-DOpenMP_CXX_FLAGS=-Xclang -fopenmp",
            f"-DOpenMP_CXX_INCLUDE_DIR={torch_root / 'include'}",
            "-DOpenMP_CXX_LIB_NAMES=omp",
            f"-DOpenMP_omp_LIBRARY={openmp}"]
