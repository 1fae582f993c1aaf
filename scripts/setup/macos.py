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

  * Gloo's headers. Lesson 10's c10d::ProcessGroupGloo includes them; the wheel is built with Gloo
    but ships no headers, and Homebrew has none. Debian 13's libgloo-dev package holds them (and
    nothing else the course uses): it is fetched once into the cache folder, its SHA-256 checked,
    and its headers taken out, with config.h set as PyTorch's macOS wheel builds Gloo (libuv's
    transport; no TCP, InfiniBand, MPI, Redis, CUDA or AVX). Where it cannot be fetched, the
    set-up says so and goes on (only lesson 10's exercises and tests need it), and
    `./torchlings setup` tries again, giving the headers to a build configured without them.

Nothing here has been run on a Mac by the course's own CI. The cross-build
(scripts/ci/macos_cross_check.sh) links against the same wheel. The GitHub workflow
(.github/workflows/macos.yml) runs the README's two commands on a macos-14 runner.
"""

from __future__ import annotations

import hashlib
import http.client
import io
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import urllib.request
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
# Debian 13's libgloo-dev (54 kB), from Debian's mirrors, or from snapshot.debian.org, which keeps
# every file Debian ever published, by its SHA-1, should the mirrors have moved on to a rebuild.
GLOO_DEB = "libgloo-dev_0.0~git20231202.5354032-3+b2_arm64.deb"
GLOO_SHA256 = "78c1b1553950692f677516845ebf6e909fd658e7783c892925186c044464d52b"
GLOO_URLS = ("https://deb.debian.org/debian/pool/main/g/gloo/" + GLOO_DEB,
             "https://snapshot.debian.org/file/d552a90258418f2c050298ab6af4fcaf8962bf73")
# config.h's values on macOS, as PyTorch's wheel builds Gloo there: the libuv transport (PyTorch
# turns it on; its GlooDeviceFactory.cpp stops without it on Apple); TCP (epoll), InfiniBand, MPI
# and Redis are Linux builds'; no CUDA, ROCm or x86's AVX. Set whatever Debian chose.
GLOO_MACOS_CONFIG = {"GLOO_USE_CUDA": 0, "GLOO_USE_NCCL": 0, "GLOO_USE_ROCM": 0,
                     "GLOO_USE_RCCL": 0, "GLOO_USE_AVX": 0,
                     "GLOO_USE_REDIS": 0, "GLOO_USE_IBVERBS": 0, "GLOO_USE_MPI": 0,
                     "GLOO_USE_LIBUV": 1, "GLOO_HAVE_TRANSPORT_TCP": 0,
                     "GLOO_HAVE_TRANSPORT_TCP_TLS": 0, "GLOO_HAVE_TRANSPORT_IBVERBS": 0,
                     "GLOO_HAVE_TRANSPORT_UV": 1}


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


# Written last into a finished folder of headers: which package they came from.
GLOO_STAMP = ".torchlings-gloo"


def download(url: str) -> bytes:
    """The file at url: with macOS's curl, which trusts the system's certificates (a Python from
    python.org may have none), else with Python's own client. OSError when it cannot."""
    curl = shutil.which("curl")
    if curl:
        got = subprocess.run([curl, "-fsSL", "--max-time", "60", url], capture_output=True)
        if got.returncode != 0:
            raise OSError(got.stderr.decode(errors="replace").strip() or f"curl: {got.returncode}")
        return got.stdout
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.read()
    except http.client.HTTPException as error:   # a connection cut in the middle of the file
        raise OSError(f"{type(error).__name__}: {error}") from error


def deb_member(deb: bytes, prefix: str) -> bytes:
    """The member of a .deb (an ar archive) whose name starts with prefix ("data.tar")."""
    if not deb.startswith(b"!<arch>\n"):
        raise ValueError("not a .deb (no ar header)")
    at = 8
    while at + 60 <= len(deb):
        name = deb[at:at + 16].decode("ascii").strip().rstrip("/")
        size = int(deb[at + 48:at + 58].decode("ascii").strip())
        if size < 0 or at + 60 + size > len(deb):
            raise ValueError(f"the .deb is cut short in {name}")
        if name.startswith(prefix):
            return deb[at + 60:at + 60 + size]
        at += 60 + size + (size % 2)   # members start on even offsets
    raise ValueError(f"no {prefix}* in the .deb")


def macos_config(text: str) -> str:
    """Gloo's config.h with GLOO_MACOS_CONFIG's values; every one of them must be there."""
    for name, value in GLOO_MACOS_CONFIG.items():
        text, count = re.subn(rf"^#define {name} \d+$", f"#define {name} {value}", text,
                              flags=re.M)
        if count != 1:
            raise ValueError(f"config.h has no line '#define {name} N'")
    return text


def gloo_headers(cache: Path, fetch=download) -> Path | None:
    """The folder holding gloo/algorithm.h for lesson 10 (fetched once, as the module's docstring
    says), or None, said in one line, where it cannot be had."""
    include = cache / "gloo" / "include"
    try:
        if (include / GLOO_STAMP).read_text().strip() == GLOO_SHA256:
            return include
    except OSError:
        pass   # none yet, or from another package: fetched (again)
    problems = []
    for url in GLOO_URLS:
        try:
            deb = fetch(url)
        except (OSError, http.client.HTTPException) as error:
            problems.append(f"{url}: {error}")
            continue
        if hashlib.sha256(deb).hexdigest() != GLOO_SHA256:
            problems.append(f"{url}: not the expected file (its SHA-256 differs)")
            continue
        try:
            data = tarfile.open(fileobj=io.BytesIO(deb_member(deb, "data.tar")))
            headers = [member for member in data.getmembers()
                       if member.name.startswith("./usr/include/gloo/") and member.isfile()
                       and ".." not in member.name.split("/")]
            (cache / "gloo").mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(dir=cache / "gloo") as unpacked:
                # Regular files under usr/include/gloo/ only (no links, no absolute paths);
                # Python's own check too where it has it (3.11.4 and later).
                safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
                data.extractall(unpacked, members=headers, **safe)
                config = Path(unpacked) / "usr" / "include" / "gloo" / "config.h"
                config.write_text(macos_config(config.read_text()))
                (Path(unpacked) / "usr" / "include" / GLOO_STAMP).write_text(GLOO_SHA256 + "\n")
                shutil.rmtree(include, ignore_errors=True)   # a folder left half made
                os.replace(Path(unpacked) / "usr" / "include", include)
        except (OSError, ValueError, tarfile.TarError) as error:
            problems.append(f"{url}: {error}")
            continue
        say("gloo_fetched", path=include)
        return include
    say("gloo_unavailable", problems="\n  ".join(problems))
    return None


def add_gloo_to_build(cache: Path, build: Path, run=subprocess.run) -> None:
    """`./torchlings setup` on a build configured without Gloo's headers (their download failed
    then, or the set-up was older): fetched now, and given to that build's CMake."""
    try:
        found = re.search(r"^TORCHLINGS_GLOO_INCLUDE_DIR:[A-Z]+=(.*)$",
                          (build / "CMakeCache.txt").read_text(errors="replace"), re.M)
    except OSError:
        return
    if found and found.group(1) and not found.group(1).endswith("NOTFOUND"):
        return
    include = gloo_headers(cache)
    if include is None:
        return
    if run(["cmake", "-B", str(build), f"-DTORCHLINGS_GLOO_INCLUDE_DIR={include}"],
           capture_output=True).returncode != 0:
        say("gloo_reconfigure_failed", build=build)


def cmake_options(prefix: Path, torch_dir: Path, openmp: Path,
                  gloo: Path | None = None) -> list[str]:
    """What configure adds on macOS: Homebrew's prefix for the packages, OpenMP as above
    (FindOpenMP alone would look for Homebrew's libomp), and Gloo's headers."""
    torch_root = Path(os.path.normpath(torch_dir / ".." / ".." / ".."))
    gloo_option = [f"-DTORCHLINGS_GLOO_INCLUDE_DIR={gloo}"] if gloo is not None else []
    return gloo_option + [f"-DCMAKE_PREFIX_PATH={prefix}",
            "-DOpenMP_CXX_FLAGS=-Xclang -fopenmp",
            f"-DOpenMP_CXX_INCLUDE_DIR={torch_root / 'include'}",
            "-DOpenMP_CXX_LIB_NAMES=omp",
            f"-DOpenMP_omp_LIBRARY={openmp}"]
