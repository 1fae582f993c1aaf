"""The course's set-up and launcher: what ./torchlings runs once it has found python3.

    python3 scripts/setup/main.py <course root> <cache folder> [runner arguments...]

Set-up, once per machine and build folder:
  1. system packages (packages.py): installed with apt-get as root or through sudo (packages.apt_command), else the
     command is printed; the newest Clang the distribution packages with its OpenMP runtime;
     CMake from PyPI where the system's is older than the course's floor. On macOS (macos.py):
     Homebrew's formulae and Apple's Clang;
  2. LibTorch, the first found by the course's one search (cmake/TorchlingsFindTorch.cmake, which
     CMake runs too): Torch_DIR / LIBTORCH / CMAKE_PREFIX_PATH; the torch package of python3
     (Colab, GPU servers); venv/ in the course's cache folder (scripts/setup/cache_dir.sh names
     it), where the torch wheel is installed when none of the others has one (torch_wheel.py:
     CPU-only without an NVIDIA driver, else with CUDA); for a CUDA LibTorch, nvcc too
     (cuda_toolkit.py), which configuring it needs (not a GPU);
  3. cmake --preset <dev|ci> with the compiler chosen in step 1 (CXX names another), then the
     runner is built and started with the arguments.
`setup` stops after step 3's configure, `setup --cuda` first replaces a CPU-only torch of the cache
venv, `docs` builds the site. Environment: TORCHLINGS_PRESET (dev, ci, release, cpu-only, asan),
TORCHLINGS_TORCH_SPEC (a pip requirement such as "torch==2.11.0": that torch, in a cache venv of its
own, instead of python3's), TORCHLINGS_BUILD_DIR (the build folder; default build/<preset>, or
build/<preset>-<spec> for a named torch).
"""

from __future__ import annotations

import sys

if sys.version_info < (3, 8):   # said before anything newer is imported
    print("torchlings: the set-up needs Python 3.8 or newer (this is %d.%d): "
          "sudo apt-get install -y python3 python3-venv" % sys.version_info[:2], file=sys.stderr)
    sys.exit(3)

import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from messages import SetupError, fail, say, text  # noqa: E402

# Only a set-up imports the set-up's steps; a call on a configured build (every `check`) starts the
# runner without them.
TORCH_MARKER = ".torchlings-installing"   # torch_wheel.MARKER


@dataclass
class Layout:
    """Where things are for this call: the preset, the cache venv, the build folder."""
    root: Path
    preset: str
    cache: Path
    venv: Path
    build: Path

    @property
    def runner(self) -> Path:
        return self.build / "bin" / "torchlings-runner"


def layout(root: Path, environ: dict, cache: Path) -> Layout:
    """The preset: TORCHLINGS_PRESET; else ci where CI=true in the course itself (a class's copy,
    which has no solutions/, builds as its students do even where CI=true, as in GitHub Actions);
    else dev. A named torch gets a venv and a build folder of its own, so that trying another
    version never replaces the one every other build uses."""
    if environ.get("TORCHLINGS_PRESET"):
        preset = environ["TORCHLINGS_PRESET"]
    elif environ.get("CI") == "true" and (root / "solutions").is_dir():
        preset = "ci"
    else:
        preset = "dev"
    spec = environ.get("TORCHLINGS_TORCH_SPEC", "")
    if spec:
        name = re.sub(r"[^A-Za-z0-9.]+", "-", spec)
        venv, build = cache / f"venv-{name}", root / "build" / f"{preset}-{name}"
    else:
        venv, build = cache / "venv", root / "build" / preset
    if environ.get("TORCHLINGS_BUILD_DIR"):
        build = Path(environ["TORCHLINGS_BUILD_DIR"])
    return Layout(root, preset, cache, venv, build)


# --- 2. LibTorch ---------------------------------------------------------------------------------
def find_torch(place: Layout) -> tuple[str, str]:
    """(Torch_DIR, where it was found) by the course's one search, or ("", "")."""
    search = ["-DTORCHLINGS_TORCH_SEARCH=named;cache"] if os.environ.get(
        "TORCHLINGS_TORCH_SPEC") else []
    script = place.root / "cmake" / "TorchlingsFindTorch.cmake"
    found = subprocess.run(["cmake", *search, f"-DTORCHLINGS_TORCH_VENV={place.venv}", "-P",
                            str(script)], stdout=subprocess.PIPE, text=True)
    if found.returncode != 0:
        raise fail("find_failed", script=script)
    lines = found.stdout.splitlines() + ["", ""]
    return lines[0], lines[1]


def remove(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
    if path.exists():
        raise fail("cannot_remove", path=path)


def remove_unfinished_venv(venv: Path) -> None:
    """A venv whose install was cut short (torch_wheel.py's marker is still there) is not a
    working LibTorch: removed, to be installed again."""
    if (venv / TORCH_MARKER).exists():
        say("unfinished_venv", venv=venv)
        remove(venv)


def install_torch(place: Layout, want_cuda: bool, cpu_asked: bool,
                  python: str = "python3") -> None:
    """Into the cache venv, which `python` makes (macOS: Homebrew's, newer than the system's)."""
    spec = os.environ.get("TORCHLINGS_TORCH_SPEC") or "torch"
    # A venv whose Python or pip no longer runs (its python3 was upgraded or removed, a copy was
    # cut short): pip would fail with a message that does not say so.
    import torch_wheel
    if place.venv.exists() and not torch_wheel.pip_runs(str(place.venv / "bin" / "python")):
        raise fail("broken_venv", venv=place.venv)
    try:
        place.cache.mkdir(parents=True, exist_ok=True)
    except OSError:
        raise fail("no_cache_dir", folder=place.cache) from None
    if not (place.venv / "bin" / "python").exists():
        if subprocess.run([python, "-m", "venv", str(place.venv)]).returncode != 0:
            # A venv made without pip (Debian's python3 without python3-venv) goes: left, the next
            # run would call it broken instead of making it once python3-venv is installed.
            shutil.rmtree(place.venv, ignore_errors=True)
            raise fail("no_venv", venv=place.venv)
    say("installing_torch", spec=spec, venv=place.venv)
    installer = torch_wheel.Installer(place.venv, spec, sys.stderr.isatty())
    torch_wheel.install(place.venv, spec, want_cuda, installer, cpu_asked=cpu_asked)


def add_numpy(venv: Path) -> None:
    """A cache venv made before numpy was installed with torch gets it once (not tried again
    when that fails, e.g. offline): without it every Python start of torch warns."""
    for site in venv.glob("lib/python3*/site-packages"):
        if not (site / "torch").is_dir() or (site / "numpy").is_dir():
            continue
        # Tried once; and not for a torch without its CUDA libraries, whose Python package (and
        # torchrun with it) cannot start.
        import torch_wheel
        if (venv / ".no-numpy").exists() or (venv / torch_wheel.CPU_USE).exists():
            continue
        say("installing_numpy", venv=venv)
        if subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", "numpy"], stdout=2).returncode != 0:
            (venv / ".no-numpy").touch()
            say("numpy_failed", venv=venv)


def replace_cpu_torch(place: Layout) -> Path | None:
    """`setup --cuda` where the cache venv holds a CPU-only torch (the CPU wheel, or PyPI's
    without its CUDA libraries): the venv is set aside (its path, returned, is put back if the
    CUDA one cannot be installed) and every build folder that used it is configured again."""
    import torch_wheel
    for torch_lib in place.venv.glob("lib/python3*/site-packages/torch/lib"):
        if (torch_lib / "libtorch_cuda.so").exists() \
                and not torch_wheel.used_as_cpu_only(torch_lib.parent):
            continue
        say("replacing_cpu_torch", venv=place.venv)
        # build/*, and this call's build folder, which TORCHLINGS_BUILD_DIR may put elsewhere.
        caches = set((place.root / "build").glob("*/CMakeCache.txt"))
        for cache in caches | {place.build / "CMakeCache.txt"}:
            try:
                if f"Torch_DIR:PATH={place.venv}/" in cache.read_text(errors="replace"):
                    cache.unlink()
            except OSError:
                pass
        aside = place.venv.with_name(place.venv.name + ".cpu-only")
        remove(aside)
        try:
            place.venv.rename(aside)
        except OSError:
            raise fail("cannot_remove", path=place.venv) from None
        return aside
    return None


# --- 3. Configure and build ------------------------------------------------------------------------
def configure(place: Layout, want_cuda: bool, cpu_asked: bool = False) -> None:
    import cuda_toolkit
    import packages
    brew_prefix = None
    if sys.platform == "darwin":   # Homebrew's formulae and Apple's Clang (macos.py)
        import macos
        brew_prefix = macos.install_formulae(place.root)
    else:
        packages.install_system_packages(place.root)
        packages.install_site_theme()
    packages.ensure_recent_cmake(place.root, place.cache / "tools")
    if os.environ.get("CXX"):
        compiler, chosen_by = "", "CXX"
    elif brew_prefix is not None:
        compiler, chosen_by = "", "default"   # Apple's Clang, from the Command Line Tools
    else:
        compiler = packages.choose_clang() or ""
        chosen_by = "clang" if compiler else "default"
    remove_unfinished_venv(place.venv)
    torch_dir, found_by = find_torch(place)
    if not torch_dir:
        python = str(macos.venv_python(brew_prefix)) if brew_prefix is not None else "python3"
        install_torch(place, want_cuda, cpu_asked, python)
        torch_dir, found_by = find_torch(place)
        if not torch_dir:
            raise fail("still_no_torch", venv=place.venv)
    toolkit = cuda_toolkit.choose(Path(torch_dir), place.cache, place.venv)
    say("configuring", build=place.build, preset=place.preset, torch=torch_dir)
    command = ["cmake", "--preset", place.preset, "-B", str(place.build),
               f"-DTorch_DIR={torch_dir}", f"-DTORCHLINGS_TORCH_ORIGIN={found_by}|{torch_dir}",
               f"-DTORCHLINGS_CXX_CHOSEN_BY={chosen_by}",
               f"-DTORCHLINGS_CUDA_TOOLKIT_FROM={toolkit.source}",
               f"-DTORCHLINGS_CUDA_TOOLKIT_NOTE={toolkit.note}"]
    if compiler:
        command.append(f"-DCMAKE_CXX_COMPILER={compiler}")
    if toolkit.nvcc:
        command.append(f"-DCMAKE_CUDA_COMPILER={toolkit.nvcc}")
    if toolkit.root:
        command += [f"-DCUDAToolkit_ROOT={toolkit.root}", f"-DCUDA_TOOLKIT_ROOT_DIR={toolkit.root}"]
    if brew_prefix is not None:
        torch_root = Path(os.path.normpath(Path(torch_dir) / ".." / ".." / ".."))
        openmp = macos.openmp_runtime(torch_root, place.venv)
        gloo = macos.gloo_headers(place.cache)
        command += macos.cmake_options(brew_prefix, Path(torch_dir), openmp, gloo)
    (place.root / "build").mkdir(exist_ok=True)
    log = Path(f"{place.build}-configure.log")
    with open(log, "w") as out:
        configured = subprocess.run(command, cwd=place.root, stdout=out, stderr=subprocess.STDOUT)
    output = log.read_text(errors="replace")
    if configured.returncode != 0:
        sys.stderr.write(output)
        raise fail("configure_failed", log=log)
    for line in output.splitlines():
        if "torchlings:" in line:
            print(re.sub(r"^-- ", "", line), file=sys.stderr)


def progress_step(line: str) -> str | None:
    """The n/N of one of Ninja's "[n/N] ..." lines, or None (also for CMake's glob re-check)."""
    match = re.match(r"^\[(\d+/\d+)\]", line)
    return match.group(1) if match and "Re-checking globbed" not in line else None


def build(place: Layout, targets: list[str], what: str) -> bool:
    """Ninja's [n/N] lines become one updating progress line on a terminal, and a line at the
    start and at the end otherwise; nothing when everything is up to date."""
    log = place.build / "runner-build.log"
    on_terminal = sys.stderr.isatty()
    started, shown = time.monotonic(), False
    with open(log, "w") as out:
        process = subprocess.Popen(["cmake", "--build", str(place.build), "--target", *targets],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   errors="replace")
        for line in process.stdout:
            out.write(line)
            step = progress_step(line)
            if step is None:
                continue
            if on_terminal:
                sys.stderr.write(f"\rtorchlings: {text('building', what=what)} ... [{step}]")
            elif not shown:
                sys.stderr.write(f"torchlings: {text('building', what=what)} ...\n")
            shown = True
            sys.stderr.flush()
        status = process.wait()
    if shown and on_terminal:
        sys.stderr.write("\n")
    if status == 0 and shown:
        say("built", what=what, seconds=int(time.monotonic() - started))
    return status == 0


def build_runner(place: Layout, args: list[str]) -> None:
    """The runner and the device layer every lesson links (torchlings_core), and for `run NN` the
    lesson too, in one build: on a fresh machine lesson 01 then builds beside the runner. A no-op
    when nothing changed; rebuilds what a pull changed."""
    targets, what = ["torchlings-runner", "torchlings_core"], text("what_runner")
    if len(args) >= 2 and args[0] == "run" and re.fullmatch(r"\d\d", args[1]) \
            and list(place.root.glob(f"lessons/{args[1]}_*/")):
        targets.append(f"lesson_{args[1]}")
        what = text("what_runner_lesson", lesson=args[1])
    if build(place, targets, what):
        return
    # A lesson that does not compile is the runner's to report, with the compiler's first error.
    if len(targets) > 2 and build(place, targets[:2], text("what_runner")):
        return
    log = place.build / "runner-build.log"
    sys.stderr.write(log.read_text(errors="replace"))
    raise fail("runner_failed", log=log)


def main(root: Path, cache: Path, args: list[str]) -> int:
    """`cache`: the course's cache folder, as its one owner (scripts/setup/cache_dir.sh, which
    ./torchlings sources) names it."""
    import platform
    if sys.platform not in ("linux", "darwin"):   # the wrapper says so first, for Intel Macs too
        raise fail("unsupported_system", system=platform.system())
    if sys.platform == "darwin" and platform.machine() != "arm64":   # a python3 under Rosetta
        raise fail("intel_python", python=sys.executable)
    place = layout(root, os.environ, cache)
    tools = place.cache / "tools" / "bin"
    if (tools / "cmake").exists():   # CMake and Ninja from PyPI, where the system's were too old
        os.environ["PATH"] = f"{tools}{os.pathsep}{os.environ['PATH']}"
    # The torch wheel's CUDA libraries: installed where there is an NVIDIA driver
    # (torch_wheel.py looks), by the course's own CI (whose build compiles the kernels), and on
    # request (`setup --cuda`, for a learner who has a GPU now).
    want_cuda = place.preset == "ci"
    aside = None
    if args[:2] == ["setup", "--cuda"]:
        if sys.platform == "darwin":
            raise fail("cuda_on_macos")
        want_cuda = True
        aside = replace_cpu_torch(place)
    if not (place.build / "CMakeCache.txt").exists():
        try:
            configure(place, want_cuda, cpu_asked=place.preset == "cpu-only")
        except BaseException:   # a failed install, or Ctrl-C during its download
            if aside is not None:   # the CUDA torch did not install: the CPU one comes back
                remove(place.venv)
                aside.rename(place.venv)
                say("restored_cpu_torch", venv=place.venv)
            raise
    elif sys.platform == "darwin" and args[:1] == ["setup"]:
        import macos
        macos.add_gloo_to_build(place.cache, place.build)
    if aside is not None:
        remove(aside)
    add_numpy(place.venv)
    if args[:1] == ["setup"]:
        config = place.build / "torchlings_config.json"
        if want_cuda and config.exists():
            import json
            try:
                values = json.loads(config.read_text())
            except (OSError, ValueError):
                values = {}
            # null: configure found no CUDA in that torch (a config without the key says nothing).
            if "torch_cuda_version" in values and values["torch_cuda_version"] is None:
                say("torch_has_no_cuda", torch=values.get("torch_dir", ""))
        say("set_up", build=place.build)
        return 0
    if args[:1] == ["docs"]:
        log = place.build / "docs-build.log"
        with open(log, "w") as out:
            built = subprocess.run(["cmake", "--build", str(place.build), "--target", "docs"],
                                   stdout=out, stderr=subprocess.STDOUT)
        if built.returncode != 0:
            sys.stderr.write(log.read_text(errors="replace"))
            say("site_failed", log=log)
            return 1
        say("site_built")
        print(place.build / "docs" / "html" / "index.html")
        return 0
    build_runner(place, args)
    runner = str(place.runner)
    # The runner starts as sh's exec started it: Python ignores SIGPIPE and SIGXFSZ, and an
    # ignored signal stays ignored across exec (`./torchlings list | head` would then fail on
    # EPIPE instead of ending); the wrapper's note of the language is the set-up's alone.
    for number in (signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(number, signal.SIG_DFL)
    environ = {k: v for k, v in os.environ.items() if k != "TORCHLINGS_SETUP_KOREAN"}
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(runner, [runner, "--root", str(root), "--build-dir", str(place.build), *args],
              environ)


if __name__ == "__main__":
    # The wrapper starts Python with PYTHONCOERCECLOCALE=0: in the C locale Python would else set
    # LC_CTYPE=C.UTF-8 in the environment of everything it starts (the compilers, whose messages
    # then change their quotes, and the runner, which then takes the terminal for UTF-8). Python
    # still speaks UTF-8 there (its UTF-8 mode); the variable is Python's alone.
    os.environ.pop("PYTHONCOERCECLOCALE", None)
    try:
        sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]))
    except (SetupError, OSError, subprocess.CalledProcessError) as error:
        # What the set-up says, or what the system refused (a runner that cannot be started, no
        # cmake, a build folder that cannot be written): one line, never a traceback.
        print(f"torchlings: {error}", file=sys.stderr)
        sys.exit(3)   # an environment error, as the runner uses it
    except KeyboardInterrupt:
        # Ended by Ctrl-C, as the sh wrapper was: a calling shell's loop (`for n in ...; do
        # ./torchlings check $n; done`) stops only for a program that died of SIGINT, not for 130.
        sys.stderr.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        sys.exit(130)
