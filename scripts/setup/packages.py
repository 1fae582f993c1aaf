"""Step 1 of the set-up: system packages, the compiler, CMake.

Everything that needs root comes from the distribution: apt-get, run as it is by root, and through
sudo by a user who may use it (without a password, or with one typed at this terminal); anyone else
is shown the command. The package list has one owner, apt-packages.txt beside this
file, which Classroom 50's runtime.json takes too.

The compiler follows the distribution: its own Clang (the clang-N that its `clang` package depends
on: Debian 13: 19, Ubuntu 24.04: 18) when N >= CLANG_OLDEST (cmake/TorchlingsSupport.cmake states
the same floor) and apt has libomp-N-dev too. Where the distribution's own is older (Debian 12's
is 14), clang-CLANG_FALLBACK, the one the course is tested with there. Other versions beside them
are passed over: a compiler the course was not tested with is not installed for you. Without any,
the course builds with GCC (Ubuntu 22.04, whose newest Clang is 15 without libomp). Clang keeps
the templates that LibTorch's headers instantiate in its precompiled headers, and a saved exercise
then compiles in about a second instead of two to five (docs/performance.md).
"""

from __future__ import annotations

import functools
import grp
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from messages import fail, say

CLANG_OLDEST = 15
CLANG_FALLBACK = 16
SITE_THEME = "doxygen-awesome-css"
HEADER_DIRS = ("/usr/include", "/usr/local/include")
APT_ENV = dict(os.environ, DEBIAN_FRONTEND="noninteractive")


def package_list(root: Path) -> list[str]:
    lines = (root / "scripts" / "setup" / "apt-packages.txt").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def missing_packages(have_program=shutil.which, header_dirs=HEADER_DIRS) -> list[str]:
    """The packages the course cannot do without, as Debian names them, that are not here. lld
    and bubblewrap are not among them: apt-get installs them with the others, and the course works
    without them (more slowly; unsandboxed, saying so)."""
    def header(*names: str) -> bool:
        return any(os.path.exists(os.path.join(d, n)) for d in header_dirs for n in names)

    needed = [("g++", have_program("g++")), ("cmake", have_program("cmake")),
              ("ninja-build", have_program("ninja")), ("doxygen", have_program("doxygen")),
              ("python3", have_program("python3")),
              # Catch2 v2 (catch2/catch.hpp) or v3: the course builds with either.
              ("catch2", header("catch2/catch.hpp", "catch2/catch_test_macros.hpp")),
              ("libbenchmark-dev", header("benchmark")),
              ("libcli11-dev", header("CLI/CLI.hpp")),
              ("nlohmann-json3-dev", header("nlohmann/json.hpp")),
              ("libssl-dev", header("openssl/evp.h")),
              ("libgloo-dev", header("gloo/algorithm.h")),
              ("git", have_program("git"))]
    return [name for name, present in needed if not present]


def apt_candidate(package: str) -> bool:
    """Whether apt can install the package (a name that only other packages mention has none)."""
    policy = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True)
    return re.search(r"Candidate: [^(]", policy.stdout) is not None


def clang_to_install(own: int | None, packaged) -> int | None:
    """The N of the clang-N to install: the distribution's own when it is recent enough and
    packaged with its OpenMP runtime; CLANG_FALLBACK where the own one is older; else none."""
    def usable(n: int) -> bool:
        return n >= CLANG_OLDEST and packaged(f"clang-{n}") and packaged(f"libomp-{n}-dev")
    if own is None:
        return None
    if usable(own):
        return own
    if own < CLANG_OLDEST and usable(CLANG_FALLBACK):
        return CLANG_FALLBACK
    return None


def distribution_clang() -> int | None:
    depends = subprocess.run(["apt-cache", "depends", "clang"], capture_output=True, text=True)
    match = re.search(r"^\s*Depends: clang-(\d+)$", depends.stdout, re.MULTILINE)
    return int(match.group(1)) if match else None


def installed_clangs(path: str | None = None) -> list[int]:
    """The N of every clang++-N (N >= CLANG_OLDEST) on PATH, newest first."""
    versions = set()
    for folder in (path if path is not None else os.environ.get("PATH", "")).split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            match = re.fullmatch(r"clang\+\+-(\d+)", name)
            if match and os.access(os.path.join(folder, name), os.X_OK):
                versions.add(int(match.group(1)))
    return sorted((n for n in versions if n >= CLANG_OLDEST), reverse=True)


# What the OpenMP probe found, for each set of installed Clangs: the set-up asks twice (before it
# installs packages, and when it configures), and a probe compiles a program with each Clang.
_PROBED: dict[tuple[int, ...], tuple[str | None, list[str]]] = {}


def choose_clang(quiet: bool = False) -> str | None:
    """The newest installed clang++-N that compiles and links an OpenMP program (the course's
    kernels need LLVM's OpenMP runtime, libomp-N-dev), or None (saying why when a Clang is
    installed without its runtime, unless quiet)."""
    clangs = tuple(installed_clangs())
    if clangs not in _PROBED:
        found, without_omp = None, []
        with tempfile.TemporaryDirectory() as probe:
            source = Path(probe) / "omp.cpp"
            source.write_text("#include <omp.h>\n"
                              "int main() { return omp_get_max_threads() > 0 ? 0 : 1; }\n")
            for n in clangs:
                compiler = shutil.which(f"clang++-{n}")
                compiled = subprocess.run(
                    [compiler, "-fopenmp", str(source), "-o", f"{probe}/omp"],
                    capture_output=True)
                if compiled.returncode == 0:
                    found = compiler
                    break
                without_omp.append(f" clang++-{n} (libomp-{n}-dev)")
        _PROBED[clangs] = (found, without_omp)
    found, without_omp = _PROBED[clangs]
    if found is None and without_omp and not quiet:
        say("no_omp", compilers="".join(without_omp))
    return found


# Groups whose members a stock Debian, Ubuntu or Fedora lets use sudo.
SUDO_GROUPS = ("sudo", "admin", "wheel")
PROXY_VARIABLES = ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")
_announced = False  # whether apt_run said that sudo may ask for a password


def apt_command(euid=os.geteuid, which=shutil.which, run=subprocess.run,
                interactive=None, groups=None) -> list[str] | None:
    """How apt-get is started here: as it is by root; through `sudo -n` where sudo needs no
    password (a cloud image's user, a CI runner); through `sudo`, which asks for the password at
    this terminal, for a member of a sudo group with a terminal (a learner's own machine); None
    for anyone else (shown the command instead). sudo drops the environment: `env` sets apt's,
    and passes on a proxy the user has set."""
    if which("apt-get") is None:
        return None
    if euid() == 0:
        return ["apt-get"]
    sudo = which("sudo")
    if sudo is None:
        return None
    proxies = [f"{name}={os.environ[name]}" for name in PROXY_VARIABLES if os.environ.get(name)]
    through = [sudo, "-n", "env", "DEBIAN_FRONTEND=noninteractive", *proxies, "apt-get"]
    asked = run([sudo, "-n", "true"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL)
    if asked.returncode == 0:
        return through
    if interactive is None:
        interactive = sys.stdin.isatty() and sys.stderr.isatty()
    if groups is None:
        groups = set()
        for gid in os.getgroups():
            try:
                groups.add(grp.getgrgid(gid).gr_name)
            except KeyError:  # a group without a name
                pass
    if interactive and groups & set(SUDO_GROUPS):
        return [sudo] + through[2:]
    return None


@functools.lru_cache(maxsize=None)  # functools.cache needs Python 3.9; the set-up takes 3.8
def _apt() -> list[str] | None:
    """apt_command()'s answer, asked once a run (it may start sudo)."""
    return apt_command()


def can_apt() -> bool:
    return _apt() is not None


def apt_may_ask() -> bool:
    """Whether apt-get here goes through a sudo that may ask for a password."""
    command = _apt()
    return command is not None and command[0] != "apt-get" and command[1:2] != ["-n"]


def apt_run(*arguments: str) -> bool:
    """apt-get with these arguments, as apt_command() says; its own output hidden."""
    command = _apt()
    if command is None:
        return False
    global _announced
    if apt_may_ask() and not _announced:
        say("sudo_password")  # once: sudo remembers the password for a while
        _announced = True
    return subprocess.run([*command, *arguments], env=APT_ENV,
                          stdout=subprocess.DEVNULL).returncode == 0


def apt_install(packages: list[str]) -> bool:
    _PROBED.clear()  # a Clang's OpenMP runtime may be among them
    return apt_run("install", "-y", "-qq", "--no-install-recommends", *packages)


def install_system_packages(root: Path) -> None:
    missing = missing_packages()
    if not missing:
        return
    packages = package_list(root)
    shown_missing = "".join(" " + name for name in missing)
    if not can_apt():
        raise fail("missing_packages", missing=shown_missing,
                   packages="".join(" " + p for p in packages), floor=cmake_floor(root))
    say("installing_packages", missing=shown_missing)
    apt_run("update", "-qq")
    # A distribution that names Catch2 only libcatch2-dev gets that.
    if not apt_candidate("catch2") and apt_candidate("libcatch2-dev"):
        packages = ["libcatch2-dev" if p == "catch2" else p for p in packages]
    if not apt_install(packages):
        raise fail("apt_failed", sudo="" if os.geteuid() == 0 else "sudo ",
                   packages="".join(" " + p for p in packages))
    # A Clang that already works is kept: libomp-N-dev packages exclude one another, so
    # installing a newer one would take the OpenMP runtime from the Clang a build folder uses.
    # Quiet here: the compiler's choice in configure says it, once.
    n = clang_to_install(distribution_clang(), apt_candidate)
    if n is not None and choose_clang(quiet=True) is None:
        say("installing_clang", n=n)
        if not apt_install([f"clang-{n}", f"libomp-{n}-dev"]):
            say("clang_failed", n=n, gxx=shutil.which("g++"))


def install_site_theme() -> None:
    """The site's theme: optional like Clang (Debian 12 and 13 and Ubuntu 24.04 package it,
    Ubuntu 22.04 does not; without it the site keeps Doxygen's default look)."""
    if os.path.exists("/usr/share/doxygen-awesome-css/doxygen-awesome.css"):
        return
    # Never worth a password: only as root or where sudo needs none.
    if not apt_candidate(SITE_THEME) or not can_apt() or apt_may_ask():
        return
    say("installing_theme", package=SITE_THEME)
    if not apt_install([SITE_THEME]):
        say("theme_failed", package=SITE_THEME)


def cmake_floor(root: Path) -> str:
    """The oldest CMake the course accepts: CMakeLists.txt's cmake_minimum_required() owns it."""
    path = root / "CMakeLists.txt"
    try:
        match = re.search(r"^cmake_minimum_required\(VERSION (\d+\.\d+)\)",
                          path.read_text(), re.MULTILINE)
    except OSError:
        match = None
    if not match:
        raise fail("no_cmake_floor", path=path)
    return match.group(1)


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def cmake_version() -> str | None:
    try:
        output = subprocess.run(["cmake", "--version"], capture_output=True, text=True).stdout
    except OSError:
        return None
    match = re.match(r"cmake version (\d+\.\d+)", output)
    return match.group(1) if match else None


def ensure_recent_cmake(root: Path, tools: Path) -> None:
    """CMake and Ninja from PyPI into tools/ of the cache folder, when the system's CMake is
    missing or older than the floor (Ubuntu 22.04's 3.22)."""
    floor = cmake_floor(root)
    found = cmake_version()
    if found and version_tuple(found) >= version_tuple(floor):
        return
    say("cmake_too_old", floor=floor, found=found or "none", tools=tools)
    python = tools / "bin" / "python"
    made = subprocess.run(["python3", "-m", "venv", str(tools)]).returncode == 0
    if not made or subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                                   "--disable-pip-version-check", f"cmake>={floor}",
                                   "ninja"]).returncode != 0:
        raise fail("cmake_failed", floor=floor)
    os.environ["PATH"] = f"{tools / 'bin'}{os.pathsep}{os.environ['PATH']}"
