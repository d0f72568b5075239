#!/usr/bin/env bash
# The Debian 13 package (scripts/package.sh --suite trixie) in a Debian 13 root
# (scripts/debian13-root.sh), as scripts/package-test.sh does the Debian 12 one on this system:
#
#   1. lintian finds no error or warning; Depends names trixie's own libraries (libasound2t64),
#      never a Debian 12 name trixie only Provides (libasound2), and Recommends its libpipewire;
#   2. dpkg -i installs it in the root (what it depends on is there already: no network);
#   3. the user unit is enabled for every user; an administrator's disable survives an upgrade;
#   4. mprisd --version, mprisd-control --help, and on a private session bus the daemon started
#      through the installed activation file by `mprisd status`, all from trixie's libraries;
#   5. dpkg -r leaves the unit not enabled; dpkg --purge removes every file and the enablement.
#
# Usage: scripts/package-test-debian13.sh DEB. Needs root; exits 77 (skipped) without a root.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
deb=${1:?usage: package-test-debian13.sh DEB}
started=$SECONDS
step() { echo "package-test (Debian 13): [$((SECONDS - started)) s] $*"; }
fail() { echo "package-test (Debian 13): FAILED: $*" >&2; exit 1; }
(( EUID == 0 )) || { echo "package-test (Debian 13): skipped: needs root"; exit 77; }

root=$(scripts/debian13-root.sh) || { status=$?; (( status == 77 )) && { echo "package-test (Debian 13): skipped: no Debian 13 root"; exit 77; }; exit "$status"; }
version=$(dpkg-deb -f "$deb" Version)
depends=$(dpkg-deb -f "$deb" Depends)
recommends=$(dpkg-deb -f "$deb" Recommends)
step "$(basename "$deb"): Depends: $depends"
[[ $depends == *libasound2t64* ]] || fail "Depends does not name trixie's libasound2t64: $depends"
[[ ! $depends =~ libasound2([^t]|$) ]] || fail "Depends names Debian 12's libasound2: $depends"
[[ $recommends == *libpipewire-0.3-0t64* ]] || fail "Recommends does not name trixie's libpipewire-0.3-0t64: $recommends"

step "lintian"
if ! report=$(timeout 600 lintian --fail-on error,warning "$deb" 2>&1); then
    echo "$report" >&2
    fail "lintian reports errors or warnings (above)"
fi

# Everything below runs in the root, in a private mount namespace with its own /proc and /dev.
inside() {
    unshare --mount --propagation private /bin/sh -c '
        root=$1; shift
        mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" && mount -t tmpfs tmpfs "$root/tmp" \
            && mount -t tmpfs tmpfs "$root/run" && exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp "$@"' \
        sh "$root" "$@"
}
cp "$deb" "$root/var/cache/mprisd-under-test.deb"
installed=1
cleanup() {
    local status=$?
    if (( installed )); then inside dpkg --purge mprisd >/dev/null 2>&1 || echo "package-test (Debian 13): could not purge mprisd in $root" >&2; fi
    rm -f "$root/var/cache/mprisd-under-test.deb"
    exit "$status"
}
trap cleanup EXIT

step "dpkg -i in $root"
inside dpkg -i /var/cache/mprisd-under-test.deb > /dev/null || fail "dpkg -i in the Debian 13 root"
[[ $(inside dpkg-query -W -f='${Status} ${Version}' mprisd) == "install ok installed $version" ]] || fail "mprisd is not installed in the root"

step "the user unit: enabled for every user; disable kept across an upgrade"
global_state() { inside systemctl --global is-enabled mprisd.service 2>/dev/null || true; }
[[ $(global_state) == enabled ]] || fail "after installation the user unit is '$(global_state)' for every user, not enabled"
inside systemctl --global disable mprisd.service 2>/dev/null
inside dpkg -i /var/cache/mprisd-under-test.deb > /dev/null || fail "dpkg -i again"
[[ $(global_state) == disabled ]] || fail "the administrator's disable did not survive an upgrade: '$(global_state)'"
inside systemctl --global enable mprisd.service 2>/dev/null

step "mprisd --version, mprisd-control --help, the daemon activated on a private session bus"
upstream=${version%-*}
# Its first line the version, its second the libraries it found: trixie's, not Debian 12's.
versions=$(inside /usr/bin/mprisd --version 2>&1) || fail "mprisd --version: $versions"
[[ $(head -n 1 <<<"$versions") == "mprisd $upstream" ]] || fail "mprisd --version: $versions"
alsa=$(inside dpkg-query -W -f='${Version}' libasound2t64)
[[ $(sed -n 2p <<<"$versions") == "alsa-lib ${alsa%%-*}"* ]] || fail "mprisd --version does not name trixie's alsa-lib ${alsa%%-*}: $versions"
step "$(tr '\n' ';' <<<"$versions")"
inside /usr/bin/mprisd-control --help | grep -q "Usage: mprisd-control" || fail "mprisd-control --help"
status=$(inside dbus-run-session -- /usr/bin/mprisd status --json 2>&1) || fail "mprisd status on a private bus: $status"
grep -q '"sessions"' <<<"$status" || fail "mprisd status answered no status document: $status"

step "dpkg -r, dpkg --purge"
inside dpkg -r mprisd > /dev/null || fail "dpkg -r"
[[ $(global_state) != enabled ]] || fail "after removal the user unit is still enabled for every user"
inside dpkg --purge mprisd > /dev/null || fail "dpkg --purge"
installed=0
[[ ! -e $root/usr/bin/mprisd && ! -e $root/usr/lib/systemd/user/mprisd.service ]] || fail "files left after the purge"
enablement=$(find "$root/etc/systemd/user" "$root/var/lib/systemd/deb-systemd-user-helper-enabled" -name 'mprisd*' 2>/dev/null || true)
[[ -z $enablement ]] || fail "the enablement is left after the purge: $enablement"
step "passed: lintian-clean, trixie's names in Depends, installed, ran, purged"
