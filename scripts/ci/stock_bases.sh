#!/bin/bash
# Base roots made ahead of the checks that start from them (.ci/run makes them while the test
# suite builds, since they wait mostly on the network):
#
#   scripts/ci/stock_bases.sh <folder> <suite>...
#
# makes <folder>/<suite> for each suite the way scripts/ci/stock_root.sh makes a stock root
# (debootstrap's minimal root, the suite's updates for Ubuntu, ca-certificates and git), then
# <folder>/<suite>.complete. A check given STOCK_BASES=<folder> starts from a copy of it instead
# of running debootstrap itself. Needs root; STOCK_MIRROR as in stock_root.sh.
set -euo pipefail
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 <folder> <suite>..." >&2; exit 64; }
folder=$1
shift
mkdir -p "$folder"
folder=$(cd "$folder" && pwd)
for suite in "$@"; do
  (
    STOCK_SUITE=$suite STOCK_ROOT=$folder/$suite
    . "$ROOT/scripts/ci/stock_root.sh"
    [ "$(id -u)" = 0 ] || die "needs root (debootstrap, mounts, unshare and pivot_root); run it as root"
    host_install debootstrap || die "could not install debootstrap"
    unmount_root "$DIR"
    rm -rf --one-file-system "$DIR" "$DIR.complete"
    trap 'unmount_root "$DIR"' EXIT   # nothing of this machine left mounted in it, however it ends
    bootstrap_root "$DIR"
    touch "$DIR.complete"
    say "the $suite base root is ready in $(( $(date +%s) - started )) s"
  )
done
