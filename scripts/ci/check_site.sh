#!/bin/sh
# The course's site checked as a learner would use it:
#
#   scripts/ci/check_site.sh [build folder]     (default: build/<preset>, as ./torchlings picks it)
#   scripts/ci/check_site.sh --tools            only install what the check needs (.ci/run does it
#                                               while the test suite builds)
#
# 1. builds the site (the docs target: Doxygen warnings and broken local links — a href or src to
#    a missing file or #anchor — fail it; docs/site.py);
#    in the theme doxygen-awesome-css where it is installed (a note says so where it is not);
# 2. opens every page, both languages, in headless Chromium from Debian and checks its title, its
#    code blocks, that every image loads and that nothing is logged as a console error
#    (scripts/ci/check_site.py), and writes one screenshot per language to <build>/site-check/.
# Chromium, chromedriver and a Korean font come from apt-get (installed here when running as root,
# else the command is printed); Selenium lives in a venv in the course's cache folder, so a second
# run downloads nothing. Exit status: 0 the site is fine, 1 it is not, 2 the check could not run.
set -eu
cd "$(dirname -- "$0")/../.."
tools_only=0
if [ "${1:-}" = --tools ]; then
  tools_only=1 BUILD=
elif [ $# -ge 1 ]; then
  BUILD=$1
elif [ -n "${TORCHLINGS_PRESET:-}" ]; then
  BUILD=build/$TORCHLINGS_PRESET
elif [ "${CI:-}" = "true" ]; then
  BUILD=build/ci
else
  BUILD=build/dev
fi
start=$(date +%s)

install_tools() {
  # Chromium, its driver, and a Korean font (without one the Korean pages render as boxes).
  PACKAGES="chromium chromium-driver fonts-nanum"
  if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1 \
     || ! fc-list :lang=ko 2>/dev/null | grep -q .; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
      echo "check_site: installing $PACKAGES" >&2
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
      # shellcheck disable=SC2086  # word splitting of the package list is intended
      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $PACKAGES \
        >/dev/null || { echo "check_site: apt-get install $PACKAGES failed" >&2; return 2; }
    else
      echo "check_site: Chromium or a Korean font is missing; install them with:" >&2
      echo "  sudo apt-get install -y $PACKAGES" >&2
      return 2
    fi
  fi
  . scripts/setup/cache_dir.sh   # sets CACHE_DIR, the course's cache folder
  VENV="$CACHE_DIR/site-venv"
  if ! "$VENV/bin/python" -c 'import selenium' >/dev/null 2>&1; then
    echo "check_site: installing selenium into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "selenium>=4.20,<5" \
      || { echo "check_site: could not install selenium" >&2; return 2; }
  fi
}

if [ "$tools_only" = 1 ]; then
  install_tools || exit $?
  echo "check_site: Chromium and Selenium are ready" >&2
  exit 0
fi

if [ -f "$BUILD/CMakeCache.txt" ]; then
  cmake --build "$BUILD" --target docs || { echo "check_site: the site did not build" >&2; exit 1; }
else
  ./torchlings docs || { echo "check_site: the site did not build" >&2; exit 1; }
fi

# The theme is optional (docs/CMakeLists.txt): without it the screenshots show Doxygen's default look.
if grep -q '^TORCHLINGS_DOXYGEN_AWESOME_DIR:PATH=.*NOTFOUND' "$BUILD/CMakeCache.txt" 2>/dev/null; then
  echo "check_site: note: doxygen-awesome-css is not installed, so the site wears Doxygen's default" \
       "look; install it (sudo apt-get install -y doxygen-awesome-css) and reconfigure $BUILD" >&2
fi

install_tools || exit $?

# Selenium must not look for a browser of its own: Debian's chromedriver is named in the script.
SE_OFFLINE=true "$VENV/bin/python" scripts/ci/check_site.py "$BUILD/docs" "$BUILD/site-check"
echo "check_site: done in $(( $(date +%s) - start )) s"
