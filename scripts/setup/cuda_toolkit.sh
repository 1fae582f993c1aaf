# shellcheck shell=sh
# The CUDA toolkit part of the course's set-up, sourced by ./torchlings (which defines say, die, t,
# CACHE_DIR and ROOT) only when a build is configured. Not meant to run on its own.

# A CUDA LibTorch (PyPI's default wheel) needs nvcc to configure, though no GPU. Chosen here, for
# the CUDA version the torch was built with (version.py's cuda = '13.2', a libtorch's +cu132):
#   1. one the learner names: CUDACXX (the nvcc) or CUDAToolkit_ROOT (the toolkit's folder);
#   2. an installed toolkit (nvcc on PATH, in CUDA_HOME or /usr/local/cuda) of the same major
#      version as the torch's;
#   3. else nvcc from PyPI, the version the torch pins ("cuda-toolkit[nvcc,cccl]==13.2.2" from its
#      METADATA): installed into $CACHE_DIR/cuda-13.2/pypi (never into a torch's own packages),
#      with beside it a toolkit folder of links (bin/, include/, lib/ with unversioned .so names,
#      lib64 -> lib, nvvm/) that CMake and Caffe2's cuda.cmake can read. PyPI has nvcc for CUDA 13
#      and later only, so a torch built with CUDA 12 gets an installed CUDA 13 toolkit, else 13.0's
#      from PyPI, and a note that says so.
# Sets cuda_nvcc and cuda_root (passed to CMake when not empty), cuda_from ("installed", "pypi",
# "CUDACXX", "CUDAToolkit_ROOT") and cuda_note, which CMake prints and writes for `doctor`.
nvcc_version() {  # $1 = nvcc; prints major.minor ("13.2"), or nothing
  "$1" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -n 1
}

installed_nvcc() {  # prints the installed nvcc that answers --version, or nothing
  for nvcc in "$(command -v nvcc 2>/dev/null || true)" "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" \
              "${CUDA_PATH:+$CUDA_PATH/bin/nvcc}" /usr/local/cuda/bin/nvcc; do
    if [ -n "$nvcc" ] && [ -n "$(nvcc_version "$nvcc")" ]; then printf '%s' "$nvcc"; return 0; fi
  done
  return 0
}

# nvcc of CUDA $1 ("13.2") from PyPI (pip requirement $2), for the torch in site-packages $3; sets
# cuda_root. pip installs into $CACHE_DIR/cuda-$1/pypi, shared by every torch of that CUDA version;
# the toolkit folder beside it, cuda-$1/torch-<version>, links nvcc's files and then the torch's own
# CUDA libraries and headers (cusparse.h, cublas_v2.h: ATen/cuda includes them), first one wins.
# Each part counts only once nvcc has compiled a kernel there (.complete, written last): one left
# by an install that was cut short is removed and made again.
pypi_cuda_toolkit() {
  cuda_dir="$CACHE_DIR/cuda-$1"
  tree="$cuda_dir/pypi/nvidia/cu${1%%.*}"
  if [ "$(cat "$cuda_dir/.complete" 2>/dev/null)" != "$2" ] || [ -z "$(nvcc_version "$tree/bin/nvcc")" ]; then
    if [ -e "$cuda_dir" ]; then
      say "$(t "removing $cuda_dir, an unfinished or broken CUDA toolkit from an earlier run" \
               "이전 실행에서 끝나지 않았거나 망가진 CUDA 툴킷을 지웁니다: $cuda_dir")"
      rm -rf "$cuda_dir" || die "$(t "cannot remove $cuda_dir; remove it yourself" "지울 수 없습니다. 직접 지우세요: $cuda_dir")"
    fi
    say "$(t "installing nvcc $1 from PyPI ('$2') into $cuda_dir (once per machine, about 300 MB)" \
             "PyPI에서 nvcc를 받아 이곳에 설치합니다(버전 $1, '$2'): $cuda_dir (컴퓨터마다 한 번, 약 300 MB)")"
    mkdir -p "$cuda_dir" || die "$(t "cannot create $cuda_dir; make its parent writable or set XDG_CACHE_HOME" \
                                     "폴더를 만들 수 없습니다: $cuda_dir. 상위 폴더에 쓸 수 있게 하거나 XDG_CACHE_HOME을 설정하세요")"
    # Any pip will do (the packages are the same for every Python): the cache venv's, python3's,
    # or that of a venv made for it.
    if "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then pip_python=$VENV/bin/python
    elif python3 -m pip --version >/dev/null 2>&1; then pip_python=python3
    else
      python3 -m venv "$cuda_dir/venv" >/dev/null 2>&1 || die "$(t "could not create a virtual environment at $cuda_dir/venv
  install Python's venv module (Debian: apt-get install python3-venv), or name a CUDA toolkit (CUDACXX)" \
"가상 환경을 만들 수 없습니다: $cuda_dir/venv
  Python의 venv 모듈을 설치하거나(Debian: apt-get install python3-venv) CUDA 툴킷을 지정하세요(CUDACXX)")"
      pip_python=$cuda_dir/venv/bin/python
    fi
    if [ -t 2 ]; then pip_shows="--progress-bar=on"; else pip_shows="--quiet --progress-bar=off"; fi
    # shellcheck disable=SC2086  # two options, meant to split
    if ! "$pip_python" -m pip install $pip_shows --disable-pip-version-check --target "$cuda_dir/pypi" "$2" 1>&2; then
      rm -rf "$cuda_dir"
      die "$(t "could not fetch nvcc $1 from PyPI: pip install '$2' failed (its messages are above).
  torch $torch_version was built with CUDA, and configuring it needs nvcc (not a GPU). Instead, name
    a CUDA ${1%%.*} toolkit:   CUDAToolkit_ROOT=/usr/local/cuda-$1 ./torchlings setup   (or CUDACXX=<its nvcc>)
    or a CPU-only LibTorch:  LIBTORCH=<unpacked libtorch> ./torchlings setup   (or Torch_DIR=<its share/cmake/Torch>)" \
"PyPI에서 nvcc(버전 $1)를 받지 못했습니다. pip install '$2' 명령이 실패했습니다(메시지는 위에 있습니다).
  이 torch($torch_version)는 CUDA로 빌드되었으므로 구성하려면 nvcc가 필요합니다(GPU는 필요 없습니다). 대신
    CUDA ${1%%.*} 툴킷을 지정하거나:   CUDAToolkit_ROOT=/usr/local/cuda-$1 ./torchlings setup   (또는 CUDACXX=<그 nvcc>)
    CPU 전용 LibTorch를 지정하세요:  LIBTORCH=<압축을 푼 libtorch> ./torchlings setup   (또는 Torch_DIR=<그 share/cmake/Torch>)")"
    fi
    [ -x "$tree/bin/nvcc" ] || die "$(t "PyPI's '$2' has no $tree/bin/nvcc; name a CUDA toolkit instead (CUDACXX=<nvcc>)" \
                                        "PyPI의 '$2'에 $tree/bin/nvcc가 없습니다. 대신 CUDA 툴킷을 지정하세요(CUDACXX=<nvcc>)")"
  fi
  # The toolkit folder, in the layout CMake's FindCUDAToolkit expects: links to pip's files, the
  # torch's (cu13: nvidia/cu13; cu12: nvidia/<library>/), unversioned .so names, lib64 -> lib. nvcc
  # finds its parts (nvvm/, include/) beside the path it is called by, so bin/ holds links too.
  cuda_root="$cuda_dir/torch-$torch_version"
  sources="$tree"
  for dir in "$3"/nvidia/*/; do
    [ -d "$dir" ] && [ "${dir%/}" != "$tree" ] || continue
    sources="$sources
${dir%/}"
  done
  if [ -f "$cuda_root/.complete" ] && [ "$(cat "$cuda_root/.complete")" = "$sources" ] \
     && [ -n "$(nvcc_version "$cuda_root/bin/nvcc")" ]; then
    return 0
  fi
  rm -rf "$cuda_root" && mkdir -p "$cuda_root" || die "cannot create $cuda_root"
  printf '%s\n' "$sources" | while IFS= read -r dir; do
    for part in bin include lib nvvm; do
      [ -d "$dir/$part" ] || continue
      mkdir -p "$cuda_root/$part"
      cp -rsn "$dir/$part/." "$cuda_root/$part/" || exit 1
    done
    # CUDA 13 moved Thrust, CUB and libcu++ (nv/target, which cuda_fp16.h includes) to include/cccl,
    # which nvcc adds itself but a C++ compile does not: linked at the top too, as CUDA 12 had them.
    if [ -d "$dir/include/cccl" ]; then cp -rsn "$dir/include/cccl/." "$cuda_root/include/" || exit 1; fi
  done || die "cannot link the CUDA toolkit's files into $cuda_root"
  for lib in "$cuda_root"/lib/lib*.so.*; do
    [ -e "$lib" ] || continue
    unversioned=${lib%%.so.*}.so
    [ -e "$unversioned" ] || ln -s "$(readlink "$lib")" "$unversioned"
  done
  ln -s lib "$cuda_root/lib64"
  # Complete once nvcc compiles a kernel (cicc, ptxas and the headers of one version).
  probe=$(mktemp -d)
  printf '#include <cuda_runtime.h>\n__global__ void probe(int *p) { *p = 1; }\n' >"$probe/probe.cu"
  if ! "$cuda_root/bin/nvcc" -c "$probe/probe.cu" -o "$probe/probe.o" >"$probe/log" 2>&1; then
    cat "$probe/log" >&2; rm -rf "$probe" "$cuda_dir/.complete"
    die "$(t "nvcc $1 from PyPI ($cuda_root/bin/nvcc) does not compile a kernel (messages above); the next run installs it again" \
             "PyPI에서 받은 nvcc($cuda_root/bin/nvcc, 버전 $1)가 커널을 컴파일하지 못합니다(메시지는 위에 있습니다). 다음 실행에서 다시 설치합니다")"
  fi
  rm -rf "$probe"
  printf '%s\n' "$2" >"$cuda_dir/.complete"
  printf '%s\n' "$sources" >"$cuda_root/.complete"
}

choose_cuda_toolkit() {  # $1 = Torch_DIR
  cuda_nvcc=""; cuda_root=""; cuda_from=""; cuda_note=""
  torch_root=$(CDPATH= cd -- "$1/../../.." && pwd)
  [ -f "$torch_root/lib/libtorch_cuda.so" ] || return 0   # a CPU-only LibTorch needs none
  if [ -f "$torch_root/version.py" ]; then
    torch_cuda=$(sed -n "s/^cuda[:= ].*'\([0-9][0-9]*\.[0-9][0-9]*\)'.*/\1/p" "$torch_root/version.py")
    torch_version=$(sed -n "s/^__version__ = '\(.*\)'.*/\1/p" "$torch_root/version.py")
  else   # a libtorch archive: build-version holds e.g. 2.9.1+cu128
    torch_version=$(head -n 1 "$torch_root/build-version" 2>/dev/null || true)
    torch_cuda=$(printf '%s' "$torch_version" | sed -n 's/.*+cu\([0-9][0-9]*\)\([0-9]\)$/\1.\2/p')
  fi
  if [ -n "${CUDACXX:-}" ]; then cuda_from=CUDACXX; return 0; fi   # CMake reads CUDACXX itself
  if [ -n "${CUDAToolkit_ROOT:-}" ]; then
    cuda_nvcc=$CUDAToolkit_ROOT/bin/nvcc; cuda_root=$CUDAToolkit_ROOT; cuda_from=CUDAToolkit_ROOT
    return 0
  fi
  installed=$(installed_nvcc)
  installed_version=""
  [ -n "$installed" ] && installed_version=$(nvcc_version "$installed")
  # Not knowing the torch's CUDA version, take the installed toolkit as before.
  if [ -z "$torch_cuda" ] && [ -z "$installed" ]; then return 0; fi
  if [ -n "$installed" ] && { [ -z "$torch_cuda" ] || [ "${installed_version%%.*}" = "${torch_cuda%%.*}" ] \
       || [ "${torch_cuda%%.*}" -lt 13 ]; }; then
    # The installed one: of the torch's major version, or the best there is for a CUDA 12 torch
    # (CMake then names the mismatch). Named to CMake only when it would not find it on PATH.
    cuda_from=installed
    if [ "$installed" != "$(command -v nvcc 2>/dev/null || true)" ]; then
      cuda_nvcc=$installed; cuda_root=$(dirname -- "$(dirname -- "$installed")")
    fi
    return 0
  fi
  if [ "${torch_cuda%%.*}" -lt 13 ]; then
    want=13.0; requirement="cuda-toolkit[nvcc,cccl]==13.0.*"
    cuda_note="torch $torch_version was built with CUDA $torch_cuda, and no CUDA toolkit is installed; PyPI has nvcc only for CUDA 13 and later, so the kernels are compiled with nvcc 13.0 from PyPI (running them on a GPU needs a driver for CUDA 13). To match, install CUDA toolkit $torch_cuda and set CUDACXX=<its nvcc>, or use a torch built with CUDA 13 (TORCHLINGS_TORCH_SPEC=torch)"
  else
    want=$torch_cuda
    # The exact version the wheel pins (torch 2.15: cuda-toolkit[cublas,...]==13.2.2), else the newest
    # of its minor version.
    pin=$(sed -n 's/^Requires-Dist: cuda-toolkit\[[^]]*\] *==\([0-9][0-9.]*\).*/\1/p' \
          "$torch_root"/../torch-*.dist-info/METADATA 2>/dev/null | head -n 1)
    case $pin in
      "$want".*) requirement="cuda-toolkit[nvcc,cccl]==$pin" ;;
      *) requirement="cuda-toolkit[nvcc,cccl]==$want.*" ;;
    esac
    if [ -n "$installed" ]; then
      cuda_note="the installed CUDA toolkit is ${installed_version:-of an unknown version} ($installed), and torch $torch_version was built with CUDA $torch_cuda: using nvcc $want from PyPI instead. To use an installed one, install CUDA toolkit ${torch_cuda%%.*}.x and set CUDACXX=<its nvcc>"
    fi
  fi
  pypi_cuda_toolkit "$want" "$requirement" "$(dirname -- "$torch_root")"
  cuda_nvcc=$cuda_root/bin/nvcc; cuda_from=pypi
}

