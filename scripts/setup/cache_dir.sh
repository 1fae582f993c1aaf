# shellcheck shell=sh
# The course's cache folder: the one place that names it. What the course keeps once per machine
# lives there: the torch wheel's venv (venv/, venv-<spec>/), nvcc from PyPI (cuda-X.Y/), CMake from
# PyPI (tools/), and the venvs of the maintainers' scripts.
#   . scripts/setup/cache_dir.sh     sets CACHE_DIR (scripts/*/*.sh)
#   sh scripts/setup/cache_dir.sh    prints it (cmake/TorchlingsFindTorch.cmake, `doctor`)
# XDG_CACHE_HOME, when set and not empty, replaces ~/.cache.
CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/torchlings"
case ${0##*/} in
  cache_dir.sh) printf '%s\n' "$CACHE_DIR" ;;
esac
