#!/bin/bash
# The course on a stock Debian 13 (trixie) machine, or Ubuntu 24.04 (noble, what Colab's runtime
# is built on), met the way a new learner meets it: no CUDA toolkit, Catch2 v3, the distribution's
# own GCC and Clang and Python (Debian 13: GCC 14, Python 3.13; Ubuntu 24.04: GCC 13, Python 3.12).
#
#   scripts/ci/stock_debian_check.sh                    a fresh minimal Debian 13 root (debootstrap)
#   STOCK_SUITE=noble scripts/ci/stock_debian_check.sh  a fresh minimal Ubuntu 24.04 root
#   STOCK_USER=learner ...                              as that user, who may use sudo without a
#                                                       password (the default: as root)
# then, inside the root, with a clean environment:
#     1. the README's first command, literally: ./torchlings run 01 (packages, torch wheel,
#        configure, build, lesson 01), and lesson 01's output checked, and `doctor`'s sandbox
#        line (bubblewrap, as on a learner's own machine; the root is entered with pivot_root,
#        not chroot: scripts/ci/stock_root.sh, enter_root); with no NVIDIA driver and
#        no PyTorch CPU index reachable (this machine reaches PyPI only), PyPI's wheel without its
#        CUDA libraries, used as a CPU-only LibTorch;
#     2. the Colab notebook, executed end to end with the root's Python;
#     3. for each lesson one exercise: the untouched stub fails its check, the solution passes;
#     4. lesson 10: two processes under torchrun, or, with PyPI's wheel used as CPU-only (no
#        torchrun there), one process and the runner's line that says why.
#   Each part prints its time; exit status 0 only if every part passed.
#
# Needs root (debootstrap, mounts, pivot_root), debootstrap (installed with apt-get when missing) and
# about 12 GB of free disk. Environment:
#   STOCK_ROOT        where the root is made (default: /tmp/torchlings-stock-<suite>); removed first
#   STOCK_SUITE       Debian suite (default: trixie), or an Ubuntu one (jammy, noble, ...)
#   STOCK_MIRROR      the distribution's mirror (default: http://deb.debian.org/debian, or
#                     http://archive.ubuntu.com/ubuntu for Ubuntu, whose archive key comes from
#                     the mirror's ubuntu-keyring package, over HTTPS)
#   STOCK_KEEP=1      keep the root afterwards (unmounted), to look inside
#   STOCK_BASES, STOCK_OWN_NETWORK  as in scripts/ci/stock_root.sh (.ci/run sets both)
#   STOCK_PIP_CACHE   a pip cache folder of this machine lent to the root (default: this machine's
#                     ${XDG_CACHE_HOME:-~/.cache}/pip when it exists; "none" for none): small
#                     wheels (CUDA's runtime, CMake's) come from there instead of the network. The torch wheel never
#                     does: the set-up installs it with --no-cache-dir, so its download is always
#                     counted. What is installed is the same; only the time differs. With
#                     STOCK_USER, none is lent (pip does not write to another user's cache).
# What is copied in from this machine and nothing else: /etc/resolv.conf, /etc/hosts,
# /etc/pip.conf (when present: the package index this machine is told to use) and the certificate
# authorities of /usr/local/share/ca-certificates (a proxy's own). The course is cloned from this checkout's
# committed HEAD, as a learner clones it.
set -euo pipefail
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)
LEARNER=${STOCK_USER:-root}
if [ "$LEARNER" = root ]; then
  HOME_IN=/root
else
  # The lent pip cache belongs to this machine's root, and pip does not write to another user's.
  HOME_IN=/home/$LEARNER STOCK_PIP_CACHE=none
fi
. "$ROOT/scripts/ci/stock_root.sh"
own_network "$@"
make_stock_root
if [ "$LEARNER" != root ]; then
  # A learner's own account: sudo without a password, as on a cloud image or a CI runner (where
  # sudo asks for one, the set-up lets it ask at the terminal: tests/runner/setup_test.py). A stock
  # Ubuntu or Debian also has python3 (without python3-venv, which the set-up installs); minbase
  # has neither.
  in_root "export DEBIAN_FRONTEND=noninteractive; apt-get install -y -qq --no-install-recommends sudo python3 >/dev/null \
    && useradd --create-home --shell /bin/bash --groups sudo $LEARNER \
    && echo '$LEARNER ALL=(ALL:ALL) NOPASSWD: ALL' >/etc/sudoers.d/$LEARNER && chmod 440 /etc/sudoers.d/$LEARNER" \
    || die "could not make the user $LEARNER in the root"
fi
git clone -q --no-local "$ROOT" "$DIR$HOME_IN/torchlings"
[ "$LEARNER" = root ] || enter_root "$DIR" chown -R "$LEARNER:$LEARNER" "$HOME_IN/torchlings"
# as_learner <command>: in the root as the learner (root unless STOCK_USER names another), with a
# clean, login-like environment.
as_learner() {
  if [ "$LEARNER" = root ]; then in_root "$1"; return; fi
  enter_root "$DIR" --userspec="$LEARNER:$LEARNER" /usr/bin/env -i HOME="$HOME_IN" USER="$LEARNER" \
    LOGNAME="$LEARNER" LANG=C.UTF-8 TERM=dumb CI=false PATH=/usr/local/bin:/usr/bin:/bin \
    /bin/bash -c "$1"
}
as_learner '. /etc/os-release; echo "stock: $PRETTY_NAME, $(uname -m); user: $(id -un); python3: $(command -v python3 || echo none); nvcc: $(command -v nvcc || echo none)"' >&2
part "the stock root"

# --- 1. The README's first command, literally -----------------------------------------------------
first=$(sed -n 's/^\(\.\/torchlings run 01\) .*/\1/p' "$ROOT/README.md" | head -n 1)
[ "$first" = "./torchlings run 01" ] || die "README.md's first command is not './torchlings run 01' any more; update this script"
say "$first"
received_before=$(received_bytes)
as_learner "cd ~/torchlings && $first" >"$DIR.lesson01.out" 2>"$DIR.setup.log" \
  || { cat "$DIR.setup.log" "$DIR.lesson01.out" >&2; die "the README's first command failed on $SUITE"; }
grep '^torchlings:' "$DIR.setup.log" >&2 || true
# Lesson 01 on a machine without a GPU: the report must say so and choose the CPU.
for expected in 'CUDA available: *false' 'cpu'; do
  grep -q -- "$expected" "$DIR.lesson01.out" \
    || { cat "$DIR.lesson01.out" >&2; die "lesson 01's output lacks '$expected'"; }
done
as_learner 'cd ~/torchlings && cat build/dev/torchlings_config.json' >&2
# The sandbox the learner's test programs run in (doctor's sandbox line, whatever doctor's verdict):
# bubblewrap, as on a learner's own machine.
sandbox=$({ as_learner 'cd ~/torchlings && ./torchlings doctor 2>&1' || true; } \
          | sed -n 's/^.*\(sandbox\)/\1/p' | head -n 1)
say "$sandbox"
if expect_sandbox; then
  case $sandbox in   # "none: bwrap is not installed (... bubblewrap)" names it too: none first
    *none*|*"separate user"*|"") die "the runner's sandbox did not start for $LEARNER on $SUITE (doctor: '$sandbox')" ;;
    *bubblewrap*) ;;
    *) die "doctor's sandbox line for $LEARNER on $SUITE is not bubblewrap's: '$sandbox'" ;;
  esac
fi
# What the first command fetched and left on disk: the download (the pip cache lent from this
# machine, when there is one, makes it smaller than a learner's), the course's cache folder (the
# torch venv, a CUDA compiler when one was fetched) and the build folder.
downloaded=$(( ($(received_bytes) - received_before) / 1000000 ))
say "downloaded $downloaded MB; on disk: $(as_learner \
  'du -sh ~/.cache/torchlings ~/torchlings/build 2>/dev/null | awk "{printf \"%s %s; \", \$2, \$1}"')"
# No NVIDIA driver here: the torch must be a CPU-only one (PyTorch's CPU wheel, or PyPI's used as
# CPU-only), and the whole first command must stay within a learner's first-contact budget of 1 GB
# downloaded, the system packages included (a wheel that stopped loading without its CUDA libraries
# would bring them back: 3.5 GB).
wheel=$(sed -n 's/.*"torch_wheel" *: *"\([^"]*\)".*/\1/p' "$DIR$HOME_IN/torchlings/build/dev/torchlings_config.json")
case $wheel in
  "CPU-only, "*|"PyPI's CUDA wheel used as CPU-only"*) say "torch: $wheel" ;;
  *) die "a machine without a driver got another torch: '$wheel'" ;;
esac
[ "$downloaded" -le 1000 ] || die "the first command downloaded $downloaded MB, over the 1,000 MB a first contact may take"
part "the first command (set-up, build, lesson 01)"
failed=""

# --- 2. The notebook, with the root's Python (it installs nbclient and ipykernel) ------------------
as_learner 'cd ~/torchlings && python3 --version && scripts/ci/ci_notebook.sh' >"$DIR.notebook.out" 2>&1 \
  || { tail -n 40 "$DIR.notebook.out" >&2; failed="$failed notebook"; }
tail -n 3 "$DIR.notebook.out" >&2
part "the notebook"

# --- 3. One exercise per lesson: the stub fails, the solution passes -------------------------------
for tests in "$ROOT"/tests/exercises/[0-9][0-9]_*/; do
  lesson=$(basename "$tests")
  id=$(ls "$tests" | sed -n 's/_test\.cpp$//p' | head -n 1)
  [ -n "$id" ] || continue
  learner=$(cd "$ROOT/exercises/$lesson" && ls "$id".* 2>/dev/null | head -n 1)
  [ -n "$learner" ] || die "exercise $id has no learner file in exercises/$lesson"
  set +e
  as_learner "cd ~/torchlings && ./torchlings check $id" >"$DIR.check-$id.stub" 2>&1
  stub=$?
  cp "$ROOT/solutions/$lesson/$learner" "$DIR$HOME_IN/torchlings/exercises/$lesson/$learner"
  as_learner "cd ~/torchlings && ./torchlings check $id" >"$DIR.check-$id.solution" 2>&1
  solution=$?
  set -e
  if [ "$stub" = 1 ] && [ "$solution" = 0 ]; then
    say "$lesson $id: the stub fails (exit 1), the solution passes"
  else
    say "$lesson $id: stub exit $stub (expected 1), solution exit $solution (expected 0)"
    tail -n 30 "$DIR.check-$id.stub" "$DIR.check-$id.solution" >&2
    failed="$failed $id"
  fi
done
part "one exercise per lesson"

# --- 4. Lesson 10 ------------------------------------------------------------------------------------
as_learner 'cd ~/torchlings && ./torchlings run 10' >"$DIR.lesson10.out" 2>&1 \
  || { cat "$DIR.lesson10.out" >&2; die "lesson 10 failed"; }
if grep -q '"torch_wheel" *: *"PyPI.s CUDA wheel used as CPU-only' "$DIR$HOME_IN/torchlings/build/dev/torchlings_config.json"; then
  grep -q '^World size: *1$' "$DIR.lesson10.out" && grep -q 'no torchrun in this build.*setup --cuda' "$DIR.lesson10.out" \
    || { cat "$DIR.lesson10.out" >&2; die "lesson 10 without torchrun did not run one process saying why"; }
  say "lesson 10: one process, torchrun being unusable with PyPI's wheel used as CPU-only (said)"
else
  grep -q '^World size: *2$' "$DIR.lesson10.out" \
    || { cat "$DIR.lesson10.out" >&2; die "lesson 10 did not run two processes (no 'World size: 2')"; }
fi
if grep -qi 'numpy' "$DIR.lesson10.out"; then
  grep -i numpy "$DIR.lesson10.out" >&2; failed="$failed lesson10-numpy-warning"
fi
part "lesson 10"

[ -z "$failed" ] || die "failed:$failed"
say "all passed on $SUITE in $(( $(date +%s) - started )) s"
