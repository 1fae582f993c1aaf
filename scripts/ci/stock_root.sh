# stock_root.sh: a stock Debian or Ubuntu root made with debootstrap, for the scripts that meet
# the course the way a new machine meets it (stock_debian_check.sh, class_platform_check.sh).
# Sourced, with ROOT (the course) set and `set -euo pipefail` on. Reads:
#   STOCK_SUITE       Debian suite (default: trixie), or an Ubuntu one (jammy, noble, ...)
#   STOCK_ROOT        where the root is made (default: /tmp/torchlings-stock-<suite>); removed first
#   STOCK_MIRROR      the distribution's mirror (default: http://deb.debian.org/debian, or
#                     http://archive.ubuntu.com/ubuntu for Ubuntu, whose archive key comes from
#                     the mirror's ubuntu-keyring package, over HTTPS)
#   STOCK_KEEP=1      keep the root afterwards (unmounted), to look inside
#   STOCK_PIP_CACHE   a pip cache folder of this machine lent to the root's /root (default: this
#                     machine's ${XDG_CACHE_HOME:-~/.cache}/pip when it exists; "none" for none)
#   STOCK_BASES       a folder of base roots made beforehand by scripts/ci/stock_bases.sh, one per
#                     suite: the root is a copy of <folder>/<suite> when that one is complete
#                     (what a check measures starts after the root is made, so only time differs)
#   STOCK_ENTER=chroot  enter the root with chroot, where bubblewrap cannot start (enter_root)
#   STOCK_OWN_NETWORK=1  the check runs in a network namespace of its own (own_network, below), so
#                     that the bytes it counts are its own while other checks download beside it
# Defines SUITE, DIR, DISTRO, say, die, part, host_install, enter_root (chroot's counterpart),
# in_root (a command as root with a clean, login-like environment), expect_sandbox, received_bytes,
# own_network, mount_root/unmount_root, bootstrap_root (debootstrap's root with ca-certificates and
# git: what scripts/ci/stock_bases.sh makes ahead) and make_stock_root, which makes the root (or
# copies its base), mounts /proc and /dev, copies in /etc/resolv.conf, /etc/hosts, /etc/pip.conf
# (when present) and the certificate authorities of /usr/local/share/ca-certificates, and installs
# ca-certificates and git (a stock installation has both; minbase lacks them). The root is unmounted and removed when the calling script exits.
SUITE=${STOCK_SUITE:-trixie}
DIR=${STOCK_ROOT:-/tmp/torchlings-stock-$SUITE}
case $SUITE in
  jammy|noble|oracular|plucky|questing) DISTRO=ubuntu ;;
  *) DISTRO=debian ;;
esac
if [ "$DISTRO" = ubuntu ]; then
  MIRROR=${STOCK_MIRROR:-http://archive.ubuntu.com/ubuntu}
else
  MIRROR=${STOCK_MIRROR:-http://deb.debian.org/debian}
fi
PIP_CACHE=${STOCK_PIP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pip}

say() { printf 'stock: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

started=$(date +%s)
part_started=$started
part() {  # part <name>: print the time of the part that ends here
  now=$(date +%s)
  say "$1 done in $((now - part_started)) s (total $((now - started)) s)"
  part_started=$now
}

unmount_all() { unmount_root "$DIR"; }
cleanup() {
  unmount_all
  rm -rf "$DIR.keyring"
  if [ "${STOCK_KEEP:-0}" != 1 ]; then rm -rf --one-file-system "$DIR"; fi
}

# received_bytes: the bytes the network interfaces of this check have received so far: this
# machine's, which the root shares, or, with STOCK_OWN_NETWORK=1, the check's own (the difference
# across a step is what that step downloaded).
received_bytes() {
  awk -F'[: ]+' 'NR > 2 && $2 != "lo" {sum += $3} END {printf "%.0f\n", sum}' /proc/net/dev
}

# host_install <command> [<package>]: a tool this machine lacks, installed with its own apt-get (as
# root) from the package of that name (default: the command's); status 1 where it cannot be.
host_install() {
  command -v "$1" >/dev/null 2>&1 && return 0
  { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; } || return 1
  set -- "${2:-$1}"
  say "installing $1"
  # A check run beside this one may be installing too: wait for apt's lock.
  local wait_lock=(-o DPkg::Lock::Timeout=600)
  DEBIAN_FRONTEND=noninteractive apt-get "${wait_lock[@]}" install -y -qq "$1" >/dev/null 2>&1 \
    || { DEBIAN_FRONTEND=noninteractive apt-get "${wait_lock[@]}" update -qq >/dev/null \
         && DEBIAN_FRONTEND=noninteractive apt-get "${wait_lock[@]}" install -y -qq "$1" >/dev/null; }
}

# enter_root <dir> [--userspec=<user>:<group>] <command> [<argument>...]: <command> inside the
# root <dir>, as `chroot` would run it, except that <dir> becomes the `/` of a mount namespace of
# its own (pivot_root), so that inside it the root is a machine's root rather than a chroot. Under
# chroot the runner's sandbox could not start: Linux refuses new user namespaces to a chrooted
# process (bwrap needs them as a user), and bwrap as root cannot make a `/` that is no mount point
# a recursive slave ("Failed to make / slave"). A learner's machine starts it, so the root must too. STOCK_ENTER=chroot keeps plain
# chroot (class_platform_check.sh's Gradescope container, where bwrap cannot start either: a
# container's root has no CAP_SYS_ADMIN, and Docker's seccomp profile refuses new namespaces).
enter_root() {
  local dir=$1 user=""
  shift
  case ${1:-} in --userspec=*) user=$1; shift ;; esac
  if [ "${STOCK_ENTER:-pivot}" = chroot ]; then
    chroot ${user:+"$user"} "$dir" "$@"
    return
  fi
  # The root's own umount and chroot do the rest: this machine's `/` is gone after pivot_root.
  unshare --mount --propagation private /bin/sh -c '
    dir=$1 user=$2
    shift 2
    [ -d "$dir/mnt" ] && [ ! -L "$dir/mnt" ] \
      || { echo "stock: $dir has no folder /mnt to put this machine'"'"'s root in" >&2; exit 125; }
    mount --rbind "$dir" "$dir" && cd "$dir" && pivot_root . mnt && /bin/umount -l /mnt \
      || { echo "stock: could not make $dir the root of a mount namespace (mount, pivot_root, umount)" >&2
           exit 125; }
    exec /usr/sbin/chroot $user / "$@"' enter_root "$dir" "$user" "$@"
}

# Inside the root: a login-like environment, nothing of this machine's (no CUDA paths, no PIP_*).
in_root() {
  enter_root "$DIR" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI=false \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"
}

# expect_sandbox: 0 when the runner's sandbox must start in the root as its user (LEARNER; root
# when unset): always as root, and as a user where this machine's kernel gives a user namespace to
# an unprivileged process (and lets it map its user in: Ubuntu 23.10 and later make the namespace
# but refuse the map, as they refuse bwrap); 1 where it cannot (a container without the right),
# saying why once.
expect_sandbox() {
  [ "${STOCK_ENTER:-pivot}" != chroot ] || return 1
  [ "${LEARNER:-root}" = root ] && return 0
  setpriv --reuid=65534 --regid=65534 --clear-groups unshare --user --map-root-user true \
    2>/dev/null && return 0
  [ -n "${no_user_namespace_said:-}" ] \
    || say "this machine's kernel gives no user namespace to a user: the sandbox cannot start for $LEARNER"
  no_user_namespace_said=1
  return 1
}

# own_network <the check's arguments>: with STOCK_OWN_NETWORK=1, runs the calling script again in
# a network namespace of its own and exits with its status. slirp4netns (a user-mode network stack,
# the one rootless Podman uses; a Debian and Ubuntu package, installed when missing) joins that
# namespace to this machine's network, so every download of the check, the root's included, passes
# through the namespace's one interface, whose counters are the check's alone. Names are looked up
# through slirp4netns's forwarder (10.0.2.3), which asks this machine's own resolver. The
# namespace cannot reach this machine's loopback (127.0.0.1): a package mirror or proxy there is
# out of its reach. The mounts the check makes live in `ip netns exec`'s own mount namespace and
# end with it. The namespace and slirp4netns are removed however the check ends (a signal
# included). Without STOCK_OWN_NETWORK the check shares this machine's network and counts all of
# it: nothing else may download meanwhile.
own_network() {
  [ "${STOCK_OWN_NETWORK:-0}" = 1 ] && [ -z "${STOCK_NETNS:-}" ] || return 0
  [ "$(id -u)" = 0 ] || die "STOCK_OWN_NETWORK=1 needs root (ip netns); run it as root"
  host_install ip iproute2 || die "STOCK_OWN_NETWORK=1 needs ip (apt-get install iproute2)"
  host_install slirp4netns || die "STOCK_OWN_NETWORK=1 needs slirp4netns (apt-get install slirp4netns)"
  OWN_NETNS="torchlings-$SUITE-$$" OWN_SLIRP="" OWN_CHECK=""
  ip netns add "$OWN_NETNS" \
    || die "could not make the network namespace $OWN_NETNS (ip netns add); run without STOCK_OWN_NETWORK"
  trap own_network_end EXIT
  trap 'exit 129' HUP
  trap 'exit 130' INT
  trap 'exit 143' TERM
  mkdir -p "/etc/netns/$OWN_NETNS"
  echo "nameserver 10.0.2.3" >"/etc/netns/$OWN_NETNS/resolv.conf"   # ip netns exec puts it in place
  slirp4netns --configure --mtu=65520 --disable-host-loopback --netns-type=path \
    "/run/netns/$OWN_NETNS" tap0 >"$DIR.slirp4netns.log" 2>&1 &
  OWN_SLIRP=$!
  local waited=0 status=0
  until ip netns exec "$OWN_NETNS" ip -4 -o addr show dev tap0 2>/dev/null | grep -q 'inet '; do
    if [ "$waited" -ge 100 ] || ! kill -0 "$OWN_SLIRP" 2>/dev/null; then
      cat "$DIR.slirp4netns.log" >&2 || true
      die "slirp4netns did not connect the network namespace $OWN_NETNS (its log is above)"
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  say "in a network namespace of its own ($OWN_NETNS, through slirp4netns): its downloads are counted alone"
  # In the background, so that a signal to this script reaches its trap at once (and the check).
  STOCK_NETNS=$OWN_NETNS ip netns exec "$OWN_NETNS" /bin/bash "$0" "$@" &
  OWN_CHECK=$!
  wait "$OWN_CHECK" || status=$?
  OWN_CHECK=""
  exit "$status"
}
own_network_end() {  # the EXIT trap of own_network: the check, slirp4netns and the namespace ended
  if [ -n "$OWN_CHECK" ]; then kill "$OWN_CHECK" 2>/dev/null || true; wait "$OWN_CHECK" 2>/dev/null || true; fi
  if [ -n "$OWN_SLIRP" ]; then kill "$OWN_SLIRP" 2>/dev/null || true; wait "$OWN_SLIRP" 2>/dev/null || true; fi
  ip netns delete "$OWN_NETNS" 2>/dev/null || true
  rm -rf "/etc/netns/$OWN_NETNS" "$DIR.slirp4netns.log" || true
}

# mount_root <dir> / unmount_root <dir>: /proc and /dev (and /dev/pts) of this machine in the root.
mount_root() {
  mount -t proc proc "$1/proc"
  mount --bind /dev "$1/dev"
  mount --bind /dev/pts "$1/dev/pts"
}
unmount_root() {
  for m in root/.cache/pip dev/pts dev proc; do
    if mountpoint -q "$1/$m" 2>/dev/null; then umount -l "$1/$m" || true; fi
  done
}

# bootstrap_root <dir>: debootstrap's minimal root of SUITE in <dir>, with what every check adds
# (the suite's updates for Ubuntu; ca-certificates and git), left unmounted. Its log is
# <dir>.debootstrap.log.
bootstrap_root() {
  local dir=$1 script=""
  local bootstrap=(--variant=minbase)
  if [ "$DISTRO" = ubuntu ]; then
    # Ubuntu's archive key, from the suite's own ubuntu-keyring package (fetched over HTTPS: apt
    # checks the packages against it, so they may come over HTTP, as a stock root fetches them), the
    # components a stock Ubuntu enables (universe holds Catch2, CLI11 and Ninja); debootstrap's script
    # for the suite, or gutsy's, which every Ubuntu suite since shares.
    local secure=${MIRROR/#http:/https:} keyring_deb
    keyring_deb=$(curl -fsS "$secure/dists/$SUITE/main/binary-amd64/Packages.gz" | gzip -dc \
      | awk '/^Package: ubuntu-keyring$/ {p = 1} p && /^Filename:/ && !n++ {print $2}') \
      || die "could not read $SUITE's package list from $secure"
    rm -rf "$dir.keyring"
    mkdir -p "$dir.keyring"
    curl -fsS -o "$dir.keyring/keyring.deb" "$secure/$keyring_deb" \
      && dpkg-deb -x "$dir.keyring/keyring.deb" "$dir.keyring" \
      || die "could not fetch Ubuntu's archive key ($secure/$keyring_deb)"
    script=/usr/share/debootstrap/scripts/$SUITE
    [ -e "$script" ] || script=/usr/share/debootstrap/scripts/gutsy
    bootstrap+=(--keyring="$dir.keyring/usr/share/keyrings/ubuntu-archive-keyring.gpg"
                --components=main,universe)
  fi
  say "debootstrap --variant=minbase $SUITE $dir"
  debootstrap "${bootstrap[@]}" "$SUITE" "$dir" "$MIRROR" ${script:+"$script"} \
    >"$dir.debootstrap.log" 2>&1 \
    || { tail -n 20 "$dir.debootstrap.log" >&2; die "debootstrap failed (log: $dir.debootstrap.log)"; }
  rm -rf "$dir.keyring"
  if [ "$DISTRO" = ubuntu ]; then  # a stock Ubuntu also takes the suite's updates
    echo "deb $MIRROR $SUITE-updates main universe" >>"$dir/etc/apt/sources.list"
    echo "deb $MIRROR $SUITE-security main universe" >>"$dir/etc/apt/sources.list"
  fi
  # What a stock installation has and minbase lacks: the certificate store and git, to clone with.
  mount_root "$dir"
  cp /etc/resolv.conf "$dir/etc/resolv.conf"
  cp /etc/hosts "$dir/etc/hosts"
  enter_root "$dir" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c \
    'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq >/dev/null \
     && apt-get install -y -qq --no-install-recommends ca-certificates git >/dev/null' \
    || { unmount_root "$dir"; die "could not install ca-certificates and git in the $SUITE root"; }
  unmount_root "$dir"
}

make_stock_root() {
  [ "$(id -u)" = 0 ] || die "needs root (debootstrap, mounts, unshare and pivot_root); run it as root"
  case $DIR in /|/tmp|/root|/home|"") die "STOCK_ROOT=$DIR is not a folder this script may remove" ;; esac
  unmount_all
  rm -rf --one-file-system "$DIR" "$DIR.keyring"
  trap cleanup EXIT
  trap 'exit 129' HUP   # bash runs no EXIT trap on a signal it does not trap: these make it
  trap 'exit 130' INT
  trap 'exit 143' TERM
  local base=${STOCK_BASES:+$STOCK_BASES/$SUITE}
  if [ -n "$base" ] && [ -f "$base.complete" ]; then
    say "a copy of the $SUITE base root made beforehand ($base)"
    cp -a "$base" "$DIR"
    cp "$base.debootstrap.log" "$DIR.debootstrap.log"
  else
    host_install debootstrap || die "could not install debootstrap"
    bootstrap_root "$DIR"
  fi
  mount_root "$DIR"
  cp /etc/resolv.conf "$DIR/etc/resolv.conf"
  # A Debian installation names the machine in /etc/hosts; minbase leaves it out, and torchrun's
  # rendezvous looks its own host name up.
  cp /etc/hosts "$DIR/etc/hosts"
  [ -f /etc/pip.conf ] && cp /etc/pip.conf "$DIR/etc/pip.conf"
  if [ "$PIP_CACHE" != none ] && [ -d "$PIP_CACHE" ]; then
    mkdir -p "$DIR/root/.cache/pip"
    mount --bind "$PIP_CACHE" "$DIR/root/.cache/pip"
    say "pip cache lent from $PIP_CACHE"
  fi
  # This machine's certificate authorities (a proxy's own), which the root must trust as well.
  mkdir -p "$DIR/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$DIR/usr/local/share/ca-certificates/" 2>/dev/null || true
  in_root "update-ca-certificates >/dev/null 2>&1" || die "could not update the root's certificate store"
}
