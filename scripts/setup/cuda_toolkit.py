"""The CUDA compiler a CUDA LibTorch needs to configure (not a GPU).

Chosen for the CUDA version the torch was built with (version.py's cuda = '13.2', a libtorch's
build-version +cu132):
  1. one the learner names: CUDACXX (the nvcc) or CUDAToolkit_ROOT (the toolkit's folder);
  2. an installed toolkit (nvcc on PATH, in CUDA_HOME, CUDA_PATH or /usr/local/cuda) of the same
     major version as the torch's (or, for a CUDA 12 torch, any: PyPI has nothing better);
  3. else nvcc from PyPI, the version the torch pins ("cuda-toolkit[nvcc,cccl]==13.2.2" from its
     METADATA): installed into <cache>/cuda-13.2/pypi (never into a torch's own packages), with
     beside it a toolkit folder of links (bin/, include/, lib/ with unversioned .so names,
     lib64 -> lib, nvvm/) that CMake and Caffe2's cuda.cmake can read. PyPI has nvcc for CUDA 13
     and later only, so a torch built with CUDA 12 gets an installed toolkit, else 13.0's from
     PyPI, and a note that says so.
The result: nvcc and root (passed to CMake when set), where it came from ("installed", "pypi",
"CUDACXX", "CUDAToolkit_ROOT") and a note, which CMake prints and records for `doctor`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from messages import fail, say
from torch_wheel import pip_runs, used_as_cpu_only


@dataclass
class Toolkit:
    nvcc: str = ""
    root: str = ""
    source: str = ""
    note: str = ""


@dataclass
class TorchBuild:
    version: str
    cuda: str   # "13.2", or "" when unknown
    pin: str    # the cuda-toolkit version the wheel's METADATA pins, or ""


def nvcc_version(nvcc: str) -> str:
    """major.minor of an nvcc that answers --version, else ""."""
    try:
        output = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return ""
    match = re.search(r"release (\d+\.\d+)", output)
    return match.group(1) if match else ""


def installed_nvcc() -> str:
    candidates = [shutil.which("nvcc") or ""]
    for variable in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(variable):
            candidates.append(os.path.join(os.environ[variable], "bin", "nvcc"))
    candidates.append("/usr/local/cuda/bin/nvcc")
    return next((nvcc for nvcc in candidates if nvcc and nvcc_version(nvcc)), "")


def torch_build(torch_root: Path) -> TorchBuild | None:
    """What the LibTorch at torch_root was built with; None for a CPU-only one, or one used as
    CPU-only (PyPI's wheel without its CUDA libraries: torch_wheel.CPU_USE)."""
    if not (torch_root / "lib" / "libtorch_cuda.so").exists() or used_as_cpu_only(torch_root):
        return None
    version, cuda = "", ""
    version_py = torch_root / "version.py"
    if version_py.exists():
        text = version_py.read_text()
        match = re.search(r"^__version__ = '(.*)'", text, re.MULTILINE)
        version = match.group(1) if match else ""
        match = re.search(r"^cuda[:= ].*'(\d+\.\d+)'", text, re.MULTILINE)
        cuda = match.group(1) if match else ""
    else:   # a libtorch archive: build-version holds e.g. 2.9.1+cu128
        try:
            version = (torch_root / "build-version").read_text().splitlines()[0].strip()
        except (OSError, IndexError):
            version = ""
        match = re.search(r"\+cu(\d+)(\d)$", version)
        cuda = f"{match.group(1)}.{match.group(2)}" if match else ""
    pin = ""
    # The first pin in the folders' sorted order, as the sh version's glob and head -n 1 took it.
    for metadata in sorted(torch_root.parent.glob("torch-*.dist-info/METADATA")):
        match = re.search(r"^Requires-Dist: cuda-toolkit\[[^]]*\] *==(\d[\d.]*)",
                          metadata.read_text(), re.MULTILINE)
        if match:
            pin = match.group(1)
            break
    return TorchBuild(version, cuda, pin)


def decide(torch: TorchBuild, environ: dict, installed: str, installed_version: str):
    """Which toolkit, without touching anything: a Toolkit when one is named or installed, else
    (version, pip requirement, note) of nvcc to fetch from PyPI."""
    if environ.get("CUDACXX"):
        return Toolkit(source="CUDACXX")   # CMake reads CUDACXX itself
    if environ.get("CUDAToolkit_ROOT"):
        root = environ["CUDAToolkit_ROOT"]
        return Toolkit(nvcc=f"{root}/bin/nvcc", root=root, source="CUDAToolkit_ROOT")
    major = torch.cuda.split(".")[0] if torch.cuda else ""
    if not torch.cuda and not installed:
        return Toolkit()   # not knowing the torch's CUDA version: CMake looks on its own
    if installed and (not torch.cuda or installed_version.split(".")[0] == major
                      or int(major) < 13):
        # Named to CMake only when it would not find it on PATH.
        if installed != (shutil.which("nvcc") or ""):
            return Toolkit(nvcc=installed, root=str(Path(installed).parent.parent),
                           source="installed")
        return Toolkit(source="installed")
    if int(major) < 13:
        note = (f"torch {torch.version} was built with CUDA {torch.cuda}, and no CUDA toolkit is "
                "installed; PyPI has nvcc only for CUDA 13 and later, so the kernels are compiled "
                "with nvcc 13.0 from PyPI (running them on a GPU needs a driver for CUDA 13). To "
                f"match, install CUDA toolkit {torch.cuda} and set CUDACXX=<its nvcc>, or use a "
                "torch built with CUDA 13 (TORCHLINGS_TORCH_SPEC=torch)")
        return "13.0", "cuda-toolkit[nvcc,cccl]==13.0.*", note
    want = torch.cuda
    if torch.pin.startswith(want + "."):
        requirement = f"cuda-toolkit[nvcc,cccl]=={torch.pin}"
    else:
        requirement = f"cuda-toolkit[nvcc,cccl]=={want}.*"
    note = ""
    if installed:
        note = (f"the installed CUDA toolkit is {installed_version or 'of an unknown version'} "
                f"({installed}), and torch {torch.version} was built with CUDA {torch.cuda}: "
                f"using nvcc {want} from PyPI instead. To use an installed one, install CUDA "
                f"toolkit {major}.x and set CUDACXX=<its nvcc>")
    return want, requirement, note


def link_tree(sources: list[Path], root: Path) -> None:
    """The toolkit folder, in the layout CMake's FindCUDAToolkit expects: links to pip's files
    and the torch's own CUDA libraries and headers (first one wins), unversioned .so names,
    lib64 -> lib. nvcc finds its parts (nvvm/, include/) beside the path it is called by, so bin/
    holds links too. CUDA 13 moved Thrust, CUB and libcu++ to include/cccl, which nvcc adds itself
    but a C++ compile does not: linked at the top too, as CUDA 12 had them."""
    def link_into(source: Path, target: Path) -> None:
        for dirpath, dirnames, filenames in os.walk(source):
            relative = Path(dirpath).relative_to(source)
            (target / relative).mkdir(parents=True, exist_ok=True)
            # A linked folder is linked, not entered (os.walk does not follow it).
            linked = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
            for name in filenames + linked:
                link = target / relative / name
                if not link.exists() and not link.is_symlink():
                    link.symlink_to(Path(dirpath) / name)

    for source in sources:
        for part in ("bin", "include", "lib", "nvvm"):
            if (source / part).is_dir():
                link_into(source / part, root / part)
        if (source / "include" / "cccl").is_dir():
            link_into(source / "include" / "cccl", root / "include")
    for lib in (root / "lib").glob("lib*.so.*") if (root / "lib").is_dir() else []:
        unversioned = root / "lib" / (lib.name.split(".so.")[0] + ".so")
        if not unversioned.exists() and not unversioned.is_symlink():
            unversioned.symlink_to(os.readlink(lib))
    (root / "lib64").symlink_to("lib")


def compiles_a_kernel(nvcc: Path) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory() as probe:
        source = Path(probe) / "probe.cu"
        source.write_text("#include <cuda_runtime.h>\n__global__ void probe(int *p) { *p = 1; }\n")
        result = subprocess.run([str(nvcc), "-c", str(source), "-o", f"{probe}/probe.o"],
                                capture_output=True, text=True)
    return result.returncode == 0, result.stdout + result.stderr


def pip_python(venv: Path, cuda_dir: Path) -> str:
    """Any pip will do (the packages are the same for every Python): the cache venv's, python3's,
    or that of a venv made for it."""
    for python in (str(venv / "bin" / "python"), "python3"):
        if pip_runs(python):
            return python
    if subprocess.run(["python3", "-m", "venv", str(cuda_dir / "venv")],
                      capture_output=True).returncode != 0:
        raise fail("no_toolkit_venv", venv=cuda_dir / "venv")
    return str(cuda_dir / "venv" / "bin" / "python")


def pypi_toolkit(cache: Path, venv: Path, want: str, requirement: str, torch: TorchBuild,
                 site_packages: Path) -> Toolkit:
    """nvcc of CUDA `want` from PyPI into cache/cuda-<want>/pypi, shared by every torch of that
    CUDA version, and the toolkit folder cuda-<want>/torch-<version> of links. Each part counts
    only once nvcc has compiled a kernel there (.complete, written last): one left by an install
    that was cut short is removed and made again."""
    cuda_dir = cache / f"cuda-{want}"
    tree = cuda_dir / "pypi" / "nvidia" / f"cu{want.split('.')[0]}"
    complete = cuda_dir / ".complete"
    done = complete.exists() and complete.read_text().strip() == requirement
    if not done or not nvcc_version(str(tree / "bin" / "nvcc")):
        if cuda_dir.exists():
            say("removing_toolkit", folder=cuda_dir)
            shutil.rmtree(cuda_dir, ignore_errors=True)
            if cuda_dir.exists():
                raise fail("cannot_remove", path=cuda_dir)
        say("installing_nvcc", version=want, requirement=requirement, folder=cuda_dir)
        try:
            cuda_dir.mkdir(parents=True, exist_ok=True)
        except OSError:
            raise fail("no_folder", folder=cuda_dir) from None
        shows = ["--progress-bar=on"] if sys.stderr.isatty() else ["--quiet", "--progress-bar=off"]
        if subprocess.run([pip_python(venv, cuda_dir), "-m", "pip", "install", *shows,
                           "--disable-pip-version-check", "--target", str(cuda_dir / "pypi"),
                           requirement], stdout=2).returncode != 0:
            shutil.rmtree(cuda_dir, ignore_errors=True)
            raise fail("nvcc_failed", version=want, requirement=requirement, torch=torch.version,
                       major=want.split(".")[0])
        if not (tree / "bin" / "nvcc").exists():
            raise fail("no_nvcc_in_wheel", requirement=requirement, nvcc=tree / "bin" / "nvcc")
    root = cuda_dir / f"torch-{torch.version}"
    sources = [tree] + sorted(d for d in (site_packages / "nvidia").glob("*")
                              if d.is_dir() and d != tree)
    listing = "\n".join(str(s) for s in sources) + "\n"
    marker = root / ".complete"
    if not (marker.exists() and marker.read_text() == listing
            and nvcc_version(str(root / "bin" / "nvcc"))):
        shutil.rmtree(root, ignore_errors=True)
        try:
            root.mkdir(parents=True)
            link_tree(sources, root)
        except OSError:
            raise fail("no_links", folder=root) from None
        ok, log = compiles_a_kernel(root / "bin" / "nvcc")
        if not ok:
            print(log, file=sys.stderr)
            complete.unlink(missing_ok=True)
            raise fail("nvcc_cannot_compile", version=want, nvcc=root / "bin" / "nvcc")
        complete.write_text(requirement + "\n")
        marker.write_text(listing)
    return Toolkit(nvcc=str(root / "bin" / "nvcc"), root=str(root), source="pypi")


def choose(torch_dir: Path, cache: Path, venv: Path) -> Toolkit:
    """The toolkit for the LibTorch whose share/cmake/Torch is torch_dir."""
    # As written, links kept (the toolkit folder's .complete lists these paths).
    torch_root = Path(os.path.normpath(torch_dir / ".." / ".." / ".."))
    torch = torch_build(torch_root)
    if torch is None:
        return Toolkit()   # a CPU-only LibTorch needs none
    installed = installed_nvcc()
    decision = decide(torch, os.environ, installed, nvcc_version(installed) if installed else "")
    if isinstance(decision, Toolkit):
        return decision
    want, requirement, note = decision
    toolkit = pypi_toolkit(cache, venv, want, requirement, torch, torch_root.parent)
    toolkit.note = note
    return toolkit
