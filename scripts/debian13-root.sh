#!/usr/bin/env bash
# Prints the path of a Debian 13 (trixie) root for the package: built once per machine with
# debootstrap from the Debian mirror apt is configured with, and cached (MPRISD_TEST_CHROOTS,
# default /var/cache/mprisd-tests, as the tests' own roots). It holds what the package's
# dependencies are worked out with (dpkg-dev: dpkg-shlibdeps against trixie's own libraries) and
# what the package needs to be installed and run there offline (its Depends and Recommends,
# dbus, systemd for `systemctl --global`). Needs root. Changing the package list builds a new root.
set -euo pipefail
packages=(dpkg-dev libdbus-1-3 libasound2t64 libstdc++6 libpulse0 libsndfile1 libdconf1 libpipewire-0.3-0t64
          init-system-helpers dbus dbus-user-session systemd)
name=debian13-package-v1
cache=${MPRISD_TEST_CHROOTS:-/var/cache/mprisd-tests}
root=$cache/$name
if [[ -f $root/.mprisd-complete ]]; then echo "$root"; exit 0; fi
(( EUID == 0 )) || { echo "debian13-root.sh: building the root needs root (debootstrap, chroot)" >&2; exit 77; }
command -v debootstrap >/dev/null || { echo "debian13-root.sh: debootstrap is missing (scripts/packages.txt lists it)" >&2; exit 1; }

# The first Debian archive of apt's sources (deb822 URIs: or a deb line), not the security one.
mirror=$(sed -n 's/^URIs: *\(http[^ ]*\).*/\1/p; s/^deb  *\(http[^ ]*\).*/\1/p' \
             /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list 2>/dev/null | grep -v security | head -n 1 || true)
mirror=${mirror:-http://deb.debian.org/debian}

mkdir -p "$cache"
scratch=$root.partial-$$
rm -rf "$scratch"
trap 'rm -rf "$scratch"' EXIT
echo "debian13-root.sh: building a Debian 13 root from $mirror (once per machine)" >&2
debootstrap --variant=minbase trixie "$scratch" "$mirror" >&2 \
    || { echo "debian13-root.sh: debootstrap cannot reach $mirror" >&2; exit 77; }
chroot "$scratch" /bin/sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
    --no-install-recommends ${packages[*]} && apt-get clean" >&2
printf '%s\n' "${packages[@]}" > "$scratch/.mprisd-complete"
# Another run may have finished first: its root is as good as this one.
mv -T "$scratch" "$root" 2>/dev/null || true
trap - EXIT
rm -rf "$scratch"
echo "$root"
