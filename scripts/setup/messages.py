"""Everything the set-up says, one table per language.

A message is a key and a format string with named fields; ENGLISH and KOREAN have the same keys
and the same fields (a unit test holds them to it). Korean is written as the runner writes it,
in 합니다체. The language is the runner's rule (scripts/setup/language.sh, which ./torchlings
sources and hands over as TORCHLINGS_SETUP_KOREAN).
"""

from __future__ import annotations

import os
import sys

ENGLISH = {
    "unsupported_system": "torchlings runs on Linux (Debian, Ubuntu, Windows through WSL2) and "
                          "on macOS on Apple silicon; this is {system}. Elsewhere: open the "
                          "course in its dev container (.devcontainer/, with Docker and VS Code's "
                          "Dev Containers), or on Colab (notebooks/torchlings_colab.ipynb); "
                          "docs/platforms.md says more",
    # 1. System packages (macOS: Homebrew's formulae)
    "no_homebrew": "the course's packages come from Homebrew on macOS, which is not installed. "
                   "Install it (https://brew.sh), then run this again:\n"
                   "  /bin/bash -c \"$(curl -fsSL "
                   "https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)\"\n"
                   "  (or install the packages yourself:  brew install {formulae})",
    "installing_formulae": "installing Homebrew formulae:{missing}",
    "brew_failed": "brew install failed; run it yourself:  brew install{formulae}",
    "brew_prefix_failed": "{brew} --prefix failed; is Homebrew installed whole? (brew doctor "
                          "says what is wrong)",
    "intel_homebrew": "the brew on your PATH ({brew}) is Intel's Homebrew, which runs under "
                      "Rosetta and installs x86_64 libraries that this Mac's arm64 build cannot "
                      "link; install Homebrew for Apple silicon (https://brew.sh), into {prefix}",
    "intel_python": "this Python ({python}) runs as an Intel (x86_64) program, under Rosetta: it "
                    "would install Intel's torch. Run ./torchlings with an arm64 python3 first "
                    "on the PATH (the Command Line Tools' /usr/bin/python3 is one)",
    "no_wheel_openmp": "the torch wheel's OpenMP runtime is missing ({path}); the course links "
                       "it on macOS. Reinstall torch, or remove the cache venv and run again",
    "gloo_fetched": "Gloo's headers (for lesson 10), from Debian's libgloo-dev: {path}",
    "gloo_unavailable": "Gloo's headers (for lesson 10's process groups) could not be fetched; "
                        "everything else works, and ./torchlings setup tries again:\n  {problems}",
    "gloo_reconfigure_failed": "Gloo's headers were fetched, but configuring {build} with them "
                               "failed; remove that folder and run ./torchlings setup",
    "renaming_openmp": "naming {path} @rpath/libomp.dylib (install_name_tool -id), so that the "
                       "course's programs load the OpenMP runtime that LibTorch loads",
    "openmp_rename_failed": "could not rename {path} to @rpath/libomp.dylib; make it writable, or "
                            "run:  install_name_tool -id @rpath/libomp.dylib {path} && codesign "
                            "--force --sign - {path}",
    "cuda_on_macos": "macOS has no CUDA: the course uses the CPU and Apple's GPU (--device mps) "
                     "here, and lesson 09's kernels run as their CPU twins",
    # 1. System packages
    "installing_packages": "installing system packages:{missing}",
    "sudo_password": "apt-get runs through sudo, which may ask for your password",
    "apt_failed": "apt-get install failed; run it yourself: {sudo}apt-get install -y{packages}",
    "installing_clang": "installing clang-{n} and libomp-{n}-dev (the distribution's Clang and its "
                        "OpenMP runtime)",
    "clang_failed": "could not install clang-{n}; building with {gxx} instead",
    "missing_packages": "missing system packages:{missing}\n"
                        "  install them with:  sudo apt-get install -y{packages}\n"
                        "  (on another distribution: a C++20 compiler, CMake >= {floor}, Ninja, "
                        "Catch2 v2.13+ or v3, Google Benchmark,\n"
                        "   Doxygen, CLI11, nlohmann-json, Gloo headers; lld is optional but makes "
                        "rebuilds much faster)",
    "no_omp": "installed without its OpenMP runtime:{compilers}; building with g++",
    "installing_theme": "installing {package} (the site's theme)",
    "theme_failed": "could not install {package}; the site keeps Doxygen's default look",
    "no_cmake_floor": "cannot read cmake_minimum_required(VERSION X.Y) from {path}; is this the "
                      "course's folder?",
    "cmake_too_old": "CMake >= {floor} is needed (found: {found}); installing it from PyPI into "
                     "{tools}",
    "cmake_failed": "could not install CMake >= {floor}; install it yourself (pip install cmake, "
                    "or your package manager)",
    # 2. LibTorch
    "find_failed": "looking for LibTorch failed: cmake -P {script} (its messages are above)",
    "broken_venv": "LibTorch not found, and the virtual environment {venv} is broken (its Python "
                   "or pip does not run).\n  Remove it, and the next run rebuilds it:  rm -rf "
                   "'{venv}'",
    "no_cache_dir": "cannot create the cache folder {folder}; make its parent writable or set "
                    "XDG_CACHE_HOME",
    "no_venv": "could not create a virtual environment at {venv}\n  install Python's venv module "
               "(Debian: apt-get install python3-venv) or set Torch_DIR/LIBTORCH",
    "installing_torch": "LibTorch not found: installing the '{spec}' wheel into {venv}",
    "still_no_torch": "LibTorch is still not found after installing it into {venv}",
    "unfinished_venv": "removing {venv}, left unfinished by an earlier set-up; installing it again",
    "cannot_remove": "cannot remove {path}; remove it yourself",
    "replacing_cpu_torch": "replacing the CPU-only torch in {venv} with the CUDA one",
    "restored_cpu_torch": "the CUDA torch could not be installed: the CPU-only one is back in "
                          "{venv}",
    "torch_has_no_cuda": "the LibTorch in use has no CUDA ({torch}): install a CUDA torch there, "
                         "or name one (Torch_DIR, LIBTORCH)",
    "installing_numpy": "installing numpy into {venv} (torchrun warns without it)",
    "numpy_failed": "could not install numpy into {venv}; lesson 10 runs, with a warning from "
                    "torchrun",
    "wheel_cpu": "no NVIDIA driver here: installing PyTorch's CPU-only torch wheel (about 200 MB; "
                 "later, with a GPU: ./torchlings setup --cuda)",
    "wheel_macos": "installing PyPI's torch wheel for macOS (CPU and Apple's GPU through MPS; "
                   "about 140 MB to download, 500 MB installed, once per machine)",
    "wheel_cuda": "installing the torch wheel with its CUDA libraries from PyPI (about 3 GB to "
                  "download, 4.4 GB installed; once per machine)",
    "wheel_fallback": "PyTorch's CPU wheel index ({index}) cannot be reached from here; "
                      "installing PyPI's torch wheel instead, without its CUDA libraries, as a "
                      "CPU-only LibTorch (about 550 MB to download, 1.3 GB installed)",
    "wheel_cpu_failed": "the CPU-only wheel could not be installed from {index} (pip's messages "
                        "are above); installing PyPI's torch wheel instead, without its CUDA "
                        "libraries, as a CPU-only LibTorch (about 550 MB to download)",
    "wheel_cpu_use_failed": "PyPI's torch did not install or load without its CUDA libraries; "
                            "installing them too (about 3 GB more to download)",
    "wheel_space": "not enough free space for the torch wheel in {folder}: {free:.1f} GB free, "
                   "about {needed:.1f} GB needed. Free some space there, or set XDG_CACHE_HOME "
                   "to a folder on a larger disk",
    "wheel_pip": "pip could not install '{spec}' into {venv} (see the messages above).\n"
                 "  Alternatives: set LIBTORCH to an unpacked libtorch archive, or Torch_DIR to "
                 "<libtorch>/share/cmake/Torch",
    # 2b. The CUDA toolkit
    "removing_toolkit": "removing {folder}, an unfinished or broken CUDA toolkit from an earlier "
                        "run",
    "installing_nvcc": "installing nvcc {version} from PyPI ('{requirement}') into {folder} (once "
                       "per machine, about 300 MB)",
    "no_folder": "cannot create {folder}; make its parent writable or set XDG_CACHE_HOME",
    "no_toolkit_venv": "could not create a virtual environment at {venv}\n  install Python's venv "
                       "module (Debian: apt-get install python3-venv), or name a CUDA toolkit "
                       "(CUDACXX)",
    "nvcc_failed": "could not fetch nvcc {version} from PyPI: pip install '{requirement}' failed "
                   "(its messages are above).\n  torch {torch} was built with CUDA, and "
                   "configuring it needs nvcc (not a GPU). Instead, name\n    a CUDA {major} "
                   "toolkit:   CUDAToolkit_ROOT=/usr/local/cuda-{version} ./torchlings setup   "
                   "(or CUDACXX=<its nvcc>)\n    or a CPU-only LibTorch:  LIBTORCH=<unpacked "
                   "libtorch> ./torchlings setup   (or Torch_DIR=<its share/cmake/Torch>)",
    "no_nvcc_in_wheel": "PyPI's '{requirement}' has no {nvcc}; name a CUDA toolkit instead "
                        "(CUDACXX=<nvcc>)",
    "nvcc_cannot_compile": "nvcc {version} from PyPI ({nvcc}) does not compile a kernel "
                           "(messages above); the next run installs it again",
    "no_links": "cannot link the CUDA toolkit's files into {folder}",
    # 3. Configure and build
    "configuring": "configuring {build} (preset {preset}) with LibTorch from {torch}",
    "configure_failed": "configuring failed (full log: {log})",
    "set_up": "set up: {build} is configured; next: ./torchlings run 01",
    "site_failed": "building the site failed (log: {log})",
    "site_built": "the site is built; open it in a browser:",
    "what_runner": "the runner and the device layer",
    "what_runner_lesson": "the runner, the device layer and lesson {lesson}",
    "building": "building {what}",
    "runner_failed": "building the runner failed (log: {log})",
    "built": "built {what} in {seconds} s",
}

KOREAN = {
    "unsupported_system": "torchlings는 Linux(Debian, Ubuntu, WSL2를 통한 Windows)와 Apple "
                          "실리콘 macOS에서 실행됩니다. 이 컴퓨터는 {system}입니다. 다른 시스템에서는 "
                          "과정을 개발 컨테이너(.devcontainer/, Docker와 VS Code의 Dev Containers)나 "
                          "Colab(notebooks/torchlings_colab.ko.ipynb)에서 여세요. 자세한 내용은 "
                          "docs/platforms.ko.md에 있습니다",
    "no_homebrew": "macOS에서는 과정의 패키지를 Homebrew로 설치하는데, Homebrew가 없습니다. "
                   "설치한 뒤(https://brew.sh) 다시 실행하세요:\n"
                   "  /bin/bash -c \"$(curl -fsSL "
                   "https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh)\"\n"
                   "  (또는 패키지를 직접 설치하세요:  brew install {formulae})",
    "installing_formulae": "Homebrew 패키지를 설치합니다:{missing}",
    "brew_failed": "brew install이 실패했습니다. 직접 실행하세요:  brew install{formulae}",
    "brew_prefix_failed": "{brew} --prefix가 실패했습니다. Homebrew가 온전히 설치되어 있나요? "
                          "(brew doctor가 무엇이 잘못되었는지 알려 줍니다)",
    "intel_homebrew": "PATH에 있는 brew({brew})는 Intel용 Homebrew입니다. Rosetta에서 실행되며 "
                      "x86_64 라이브러리를 설치하므로, 이 Mac의 arm64 빌드가 링크할 수 없습니다. "
                      "Apple silicon용 Homebrew를 {prefix}에 설치하세요(https://brew.sh)",
    "intel_python": "이 Python({python})은 Rosetta에서 Intel(x86_64) 프로그램으로 실행 중이라 "
                    "Intel용 torch를 설치하게 됩니다. PATH 맨 앞에 arm64 python3를 두고 "
                    "./torchlings를 실행하세요(Command Line Tools의 /usr/bin/python3가 그렇습니다)",
    "no_wheel_openmp": "torch 휠의 OpenMP 런타임이 없습니다({path}). macOS에서는 과정이 이것을 "
                       "링크합니다. torch를 다시 설치하거나, 캐시 venv를 지우고 다시 실행하세요",
    "gloo_fetched": "Gloo 헤더(강의 10용)를 Debian의 libgloo-dev에서 가져왔습니다: {path}",
    "gloo_unavailable": "Gloo 헤더(강의 10의 프로세스 그룹용)를 가져오지 못했습니다. 나머지는 모두 "
                        "동작하며, ./torchlings setup이 다시 시도합니다:\n  {problems}",
    "gloo_reconfigure_failed": "Gloo 헤더를 가져왔지만 그것으로 {build}를 구성하지 못했습니다. 그 "
                               "폴더를 지우고 ./torchlings setup을 실행하세요",
    "renaming_openmp": "{path}의 이름을 @rpath/libomp.dylib로 바꿉니다(install_name_tool -id). "
                       "과정의 프로그램이 LibTorch와 같은 OpenMP 런타임을 불러오게 하려는 것입니다",
    "openmp_rename_failed": "{path}의 이름을 @rpath/libomp.dylib로 바꿀 수 없습니다. 쓰기 권한을 "
                            "주거나 다음을 실행하세요:  install_name_tool -id @rpath/libomp.dylib "
                            "{path} && codesign --force --sign - {path}",
    "cuda_on_macos": "macOS에는 CUDA가 없습니다. 여기서 과정은 CPU와 Apple GPU(--device mps)를 "
                     "쓰고, 강의 09의 커널은 CPU 쌍둥이로 실행됩니다",
    "installing_packages": "시스템 패키지를 설치합니다:{missing}",
    "sudo_password": "apt-get을 sudo로 실행합니다. 비밀번호를 물을 수 있습니다",
    "apt_failed": "apt-get install이 실패했습니다. 직접 실행하세요: {sudo}apt-get install -y{packages}",
    "installing_clang": "배포판의 Clang과 그 OpenMP 런타임을 설치합니다: clang-{n}, "
                        "libomp-{n}-dev",
    "clang_failed": "clang-{n} 설치에 실패했습니다. 대신 이 컴파일러로 빌드합니다: {gxx}",
    "missing_packages": "시스템 패키지가 없습니다:{missing}\n"
                        "  다음 명령으로 설치하세요:  sudo apt-get install -y{packages}\n"
                        "  (다른 배포판에서는 C++20 컴파일러, CMake {floor} 이상, Ninja, Catch2 "
                        "v2.13+ 또는 v3, Google Benchmark,\n"
                        "   Doxygen, CLI11, nlohmann-json, Gloo 헤더가 필요합니다. lld는 없어도 "
                        "되지만 있으면 다시 빌드하는 시간이 훨씬 짧습니다)",
    "no_omp": "OpenMP 런타임 없이 설치되어 있습니다:{compilers}. g++로 빌드합니다",
    "installing_theme": "사이트 테마를 설치합니다: {package}",
    "theme_failed": "{package} 설치에 실패했습니다. 사이트는 Doxygen의 기본 모양으로 만듭니다",
    "no_cmake_floor": "{path}에서 cmake_minimum_required(VERSION X.Y)를 읽을 수 없습니다. 과정의 "
                      "폴더가 맞습니까?",
    "cmake_too_old": "CMake {floor} 이상이 필요합니다(찾은 것: {found}). PyPI에서 받아 이 폴더에 "
                     "설치합니다: {tools}",
    "cmake_failed": "CMake {floor} 이상을 설치하지 못했습니다. 직접 설치하세요(pip install cmake, "
                    "또는 패키지 관리자)",
    "find_failed": "LibTorch를 찾는 중에 오류가 났습니다: cmake -P {script} (메시지는 위에 "
                   "있습니다)",
    "broken_venv": "LibTorch를 찾지 못했고, 가상 환경이 망가져 있습니다(그 Python이나 pip가 "
                   "실행되지 않습니다): {venv}\n  지우면 다음 실행에서 다시 만듭니다:  rm -rf "
                   "'{venv}'",
    "no_cache_dir": "캐시 폴더를 만들 수 없습니다: {folder}. 상위 폴더에 쓸 수 있게 하거나 "
                    "XDG_CACHE_HOME을 설정하세요",
    "no_venv": "가상 환경을 만들 수 없습니다: {venv}\n  Python의 venv 모듈을 설치하거나(Debian: "
               "apt-get install python3-venv) Torch_DIR/LIBTORCH를 설정하세요",
    "installing_torch": "LibTorch를 찾지 못했습니다. '{spec}' 휠을 이곳에 설치합니다: {venv}",
    "still_no_torch": "LibTorch를 설치한 뒤에도 찾지 못했습니다: {venv}",
    "unfinished_venv": "이전 설정에서 설치를 마치지 못한 가상 환경을 지우고 다시 설치합니다: {venv}",
    "cannot_remove": "지울 수 없습니다. 직접 지우세요: {path}",
    "replacing_cpu_torch": "이곳의 CPU 전용 torch를 CUDA 버전으로 바꿉니다: {venv}",
    "restored_cpu_torch": "CUDA torch를 설치하지 못해 CPU 전용 torch를 되돌려 놓았습니다: {venv}",
    "torch_has_no_cuda": "쓰고 있는 LibTorch에 CUDA가 없습니다({torch}). 그곳에 CUDA용 torch를 "
                         "설치하거나 다른 것을 지정하세요(Torch_DIR, LIBTORCH)",
    "installing_numpy": "numpy를 이곳에 설치합니다: {venv} (없으면 torchrun이 경고합니다)",
    "numpy_failed": "numpy를 설치하지 못했습니다: {venv}. 강의 10은 실행되지만 torchrun이 "
                    "경고합니다",
    "wheel_cpu": "NVIDIA 드라이버가 없으므로 PyTorch의 CPU 전용 torch 휠을 설치합니다(받는 양 약 "
                 "200 MB. 나중에 GPU가 생기면 ./torchlings setup --cuda를 실행하세요)",
    "wheel_macos": "PyPI에서 macOS용 torch 휠을 설치합니다(CPU와 MPS를 통한 Apple GPU. 받는 양 약 "
                   "140 MB, 설치 후 500 MB, 컴퓨터마다 한 번)",
    "wheel_cuda": "PyPI에서 CUDA 라이브러리를 포함한 torch 휠을 설치합니다(받는 양 약 3 GB, 설치 "
                  "후 4.4 GB, 컴퓨터마다 한 번)",
    "wheel_fallback": "이곳에서는 PyTorch의 CPU 휠 인덱스({index})에 접속할 수 없습니다. 대신 "
                      "PyPI의 torch 휠을 CUDA 라이브러리 없이 설치해 CPU 전용 LibTorch로 "
                      "씁니다(받는 양 약 550 MB, 설치 후 1.3 GB)",
    "wheel_cpu_failed": "{index}에서 CPU 전용 휠을 설치하지 못했습니다(pip의 메시지는 위에 "
                        "있습니다). 대신 PyPI의 torch 휠을 CUDA 라이브러리 없이 설치해 CPU 전용 "
                        "LibTorch로 씁니다(받는 양 약 550 MB)",
    "wheel_cpu_use_failed": "PyPI의 torch를 CUDA 라이브러리 없이 설치하거나 불러오지 못했습니다. "
                            "CUDA 라이브러리도 설치합니다(받는 양 약 3 GB 추가)",
    "wheel_space": "torch 휠을 설치할 공간이 부족합니다: {folder}. 남은 공간 {free:.1f} GB, "
                   "필요한 공간 약 {needed:.1f} GB. 공간을 비우거나 XDG_CACHE_HOME을 더 큰 "
                   "디스크의 폴더로 지정하세요",
    "wheel_pip": "pip로 설치하지 못했습니다: '{spec}' (설치할 곳: {venv}, 위의 메시지를 "
                 "보세요).\n  대안: LIBTORCH에 libtorch 아카이브를 푼 폴더를, 또는 Torch_DIR에 "
                 "<libtorch>/share/cmake/Torch를 지정하세요",
    "removing_toolkit": "이전 실행에서 끝나지 않았거나 망가진 CUDA 툴킷을 지웁니다: {folder}",
    "installing_nvcc": "PyPI에서 nvcc를 받아 이곳에 설치합니다(버전 {version}, '{requirement}'): "
                       "{folder} (컴퓨터마다 한 번, 약 300 MB)",
    "no_folder": "폴더를 만들 수 없습니다: {folder}. 상위 폴더에 쓸 수 있게 하거나 "
                 "XDG_CACHE_HOME을 설정하세요",
    "no_toolkit_venv": "가상 환경을 만들 수 없습니다: {venv}\n  Python의 venv 모듈을 "
                       "설치하거나(Debian: apt-get install python3-venv) CUDA 툴킷을 "
                       "지정하세요(CUDACXX)",
    "nvcc_failed": "PyPI에서 nvcc(버전 {version})를 받지 못했습니다. pip install "
                   "'{requirement}' 명령이 실패했습니다(메시지는 위에 있습니다).\n  이 "
                   "torch({torch})는 CUDA로 빌드되었으므로 구성하려면 nvcc가 필요합니다(GPU는 "
                   "필요 없습니다). 대신\n    CUDA {major} 툴킷을 지정하거나:   "
                   "CUDAToolkit_ROOT=/usr/local/cuda-{version} ./torchlings setup   (또는 "
                   "CUDACXX=<그 nvcc>)\n    CPU 전용 LibTorch를 지정하세요:  LIBTORCH=<압축을 푼 "
                   "libtorch> ./torchlings setup   (또는 Torch_DIR=<그 share/cmake/Torch>)",
    "no_nvcc_in_wheel": "PyPI의 '{requirement}'에 {nvcc}가 없습니다. 대신 CUDA 툴킷을 "
                        "지정하세요(CUDACXX=<nvcc>)",
    "nvcc_cannot_compile": "PyPI에서 받은 nvcc({nvcc}, 버전 {version})가 커널을 컴파일하지 "
                           "못합니다(메시지는 위에 있습니다). 다음 실행에서 다시 설치합니다",
    "no_links": "CUDA 툴킷의 파일을 이곳에 링크할 수 없습니다: {folder}",
    "configuring": "빌드를 구성합니다: {build} (프리셋 {preset}, LibTorch: {torch})",
    "configure_failed": "구성에 실패했습니다 (전체 로그: {log})",
    "set_up": "준비가 끝났습니다. 구성한 빌드: {build}. 다음: ./torchlings run 01",
    "site_failed": "사이트 빌드에 실패했습니다 (로그: {log})",
    "site_built": "사이트를 빌드했습니다. 브라우저에서 여세요:",
    "what_runner": "러너와 장치 계층",
    "what_runner_lesson": "러너, 장치 계층, 강의 {lesson}",
    "building": "{what} 빌드 중",
    "runner_failed": "러너 빌드에 실패했습니다 (로그: {log})",
    "built": "{what} 빌드를 마쳤습니다 ({seconds}초)",
}


class SetupError(Exception):
    """An environment error the set-up cannot get past: its message is shown, exit status 3."""


def korean() -> bool:
    return os.environ.get("TORCHLINGS_SETUP_KOREAN") == "1"


def text(key: str, **fields: object) -> str:
    return (KOREAN if korean() else ENGLISH)[key].format(**fields)


def say(key: str, **fields: object) -> None:
    print("torchlings: " + text(key, **fields), file=sys.stderr, flush=True)


def fail(key: str, **fields: object) -> SetupError:
    """The error to raise: `raise fail("key", ...)`."""
    return SetupError(text(key, **fields))
