#!/usr/bin/env bash
# The Debian package, end to end, as a user without the Swift toolchain gets it (run by
# scripts/test.sh in CI; needs root, dpkg and apt-get, and exits 77 "skipped" without them):
#
#   1. scripts/package.sh builds mprisd_VERSION_ARCH.deb; lintian finds no error or warning;
#   2. dpkg -i installs it (apt-get install -f fetches what it depends on), dpkg --verify agrees;
#   3. the installed programs name no toolchain library, carry no RPATH, and ldd resolves nothing
#      under the toolchain; everything below runs with the toolchain hidden: in a private mount
#      namespace with an empty tmpfs over the toolchain's folder (so neither PATH, an ld.so.conf
#      entry nor a cache can reach it), from a bare environment (env -i, no LD_LIBRARY_PATH);
#   4. mprisd --version, mprisd-control --help;
#   5. on a private session bus (dbus-run-session, the standard session configuration, which reads
#      /usr/share/dbus-1/services): `mprisd status` starts the daemon through the installed
#      activation file (it is /usr/bin/mprisd and maps nothing from the toolchain); `mprisd play
#      --device null` of a short file is an MPRIS player playerctl sees and controls;
#   6. systemd-analyze verify accepts the installed user unit (its ExecStart, its man page), its
#      security exposure stays below 9, and the daemon runs and follows a player under the unit's
#      hardening (scripts/unit-sandbox.py: seccomp, no_new_privs, PR_SET_MDWE, the umask);
#   7. dpkg --purge removes every file the package listed, and the user unit's enablement;
#   8. the Debian 13 package (--suite trixie) the same way in a Debian 13 root
#      (scripts/package-test-debian13.sh).
# Between 2 and 3: the user unit is enabled for every user after installation, an administrator's
# `systemctl --global disable` and a user's `systemctl --user mask` survive an upgrade, removal
# leaves it not enabled and a reinstallation enables it again.
#
# The package is purged on every way out, failure included. An mprisd package installed before the
# test is left alone: the test is skipped (77), saying so.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

skip() { echo "package-test: skipped: $*"; exit 77; }
(( EUID == 0 )) || skip "needs root (dpkg -i, a private mount namespace)"
for tool in swift dpkg dpkg-deb apt-get lintian dbus-run-session playerctl systemd-analyze python3 readelf; do
    command -v "$tool" >/dev/null || skip "$tool is missing (scripts/packages.txt installs it; swift: the toolchain)"
done
if dpkg-query -W -f='${Status}' mprisd 2>/dev/null | grep -q "installed\|config-files"; then
    skip "an mprisd package is installed here already, and the test would purge it (dpkg --purge mprisd first to run it)"
fi

started=$SECONDS
step() { echo "package-test: [$((SECONDS - started)) s] $*"; }
fail() { echo "package-test: FAILED: $*" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mprisd-package-test.XXXXXX")
chmod 0755 "$work"
installed=0
cleanup() {
    local status=$?
    if (( installed )); then
        timeout 120 dpkg --purge mprisd >/dev/null 2>&1 || echo "package-test: could not purge mprisd: run dpkg --purge mprisd" >&2
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The toolchain's folder: /opt/swift for /opt/swift/usr/bin/swift (a link to swift-driver there).
swift_folder=$(dirname "$(readlink -f "$(command -v swift)")")
toolchain=${swift_folder%/usr/bin}
[[ $toolchain != "$swift_folder" && -d $toolchain && -n $toolchain ]] || fail "cannot tell the toolchain's folder from $swift_folder"

step "building the package (scripts/package.sh)"
deb=$(scripts/package.sh --output "$work" | tail -n 1)
[[ -f $deb ]] || fail "scripts/package.sh made no package"
version=$(dpkg-deb -f "$deb" Version)
upstream=${version%-*}
step "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB"

step "lintian"
# --fail-on: errors and warnings both fail (the one warning that stays is overridden in the package,
# with its reason: dist/debian/lintian-overrides). Info tags are listed, not fatal.
if ! report=$(timeout 600 lintian --fail-on error,warning --info --display-info "$deb" 2>&1); then
    echo "$report" >&2
    fail "lintian reports errors or warnings (above)"
fi
# The info tags, one line each with its count (hardening-no-bindnow: Debian's default build flags
# leave bindnow out too; hardening-no-fortify-functions: no C of ours is compiled;
# spelling-error-in-binary: strings of the Swift runtime and Foundation linked in, not ours).
grep -E "^I:" <<<"$report" | awk '{ print $3 }' | sort | uniq -c | sed 's/^ */    info: /' || true

step "dpkg -i"
installed=1
if ! timeout 300 dpkg -i "$deb" 2>&1 | tee "$work/install.log"; then
    step "apt-get install -f (the package's dependencies)"
    DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -f -y -q --no-install-recommends 2>&1 | tee -a "$work/install.log"
fi
[[ $(dpkg-query -W -f='${Status}' mprisd) == "install ok installed" ]] || fail "mprisd is not installed: $(dpkg-query -W -f='${Status}' mprisd)"
timeout 60 dpkg --verify mprisd || fail "dpkg --verify: installed files differ from the package"

# On after install (issue 25): enabled for every user, the installer told how to start it now; an
# administrator's global disable and a user's mask survive an upgrade; removal masks it, a
# reinstallation enables it again, and (at the end) purging leaves no trace of the enablement.
step "the user unit: enabled for every user; disable and mask kept across an upgrade; remove, reinstall"
global_state() { systemctl --global is-enabled mprisd.service 2>/dev/null || true; }
[[ $(global_state) == enabled ]] || fail "after installation the user unit is '$(global_state)' for every user, not enabled"
[[ -L /etc/systemd/user/default.target.wants/mprisd.service ]] || fail "no default.target.wants link for mprisd.service"
grep -q "systemctl --user start mprisd" "$work/install.log" || fail "the installation did not say how to start the daemon now"
reinstall() { timeout 300 dpkg -i "$deb" > "$work/reinstall.log" 2>&1 || fail "dpkg -i again: $(cat "$work/reinstall.log")"; }
systemctl --global disable mprisd.service 2>/dev/null
reinstall
[[ $(global_state) == disabled ]] || fail "the administrator's disable did not survive an upgrade: '$(global_state)'"
! grep -q "systemctl --user start" "$work/reinstall.log" || fail "an upgrade repeated the first installation's message"
systemctl --global enable mprisd.service 2>/dev/null
user_home=$work/masked-user
mkdir -p "$user_home"
user_state() { HOME=$user_home XDG_CONFIG_HOME=$user_home/.config systemctl --user is-enabled mprisd.service 2>/dev/null || true; }
HOME=$user_home XDG_CONFIG_HOME=$user_home/.config systemctl --user mask mprisd.service 2>/dev/null
reinstall
[[ $(user_state) == masked ]] || fail "a user's mask did not survive an upgrade: '$(user_state)'"
[[ $(global_state) == enabled ]] || fail "after the upgrade the unit is '$(global_state)' for every user, not enabled"
timeout 120 dpkg -r mprisd > "$work/remove.log" 2>&1 || fail "dpkg -r: $(cat "$work/remove.log")"
[[ $(global_state) != enabled ]] || fail "after removal the user unit is still enabled for every user"
[[ ! -e /usr/lib/systemd/user/mprisd.service ]] || fail "the unit file is still there after removal"
reinstall
[[ $(global_state) == enabled ]] || fail "a reinstallation after removal left the unit '$(global_state)', not enabled"

step "no toolchain library in the installed programs"
library_pattern='lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime|_InternalSwift|icu)'
for program in /usr/bin/mprisd /usr/bin/mprisd-control; do
    dynamic=$(readelf -d "$program")
    if grep -E "NEEDED" <<<"$dynamic" | grep -E "\[$library_pattern"; then fail "$program needs a toolchain library"; fi
    if grep -E "RPATH|RUNPATH" <<<"$dynamic"; then fail "$program carries a library search path"; fi
    resolved=$(env -i PATH=/usr/bin:/bin ldd "$program")
    if grep -F "$toolchain/" <<<"$resolved"; then fail "ldd $program resolves libraries under $toolchain"; fi
    if grep -F "not found" <<<"$resolved"; then fail "ldd $program: a library is missing"; fi
done

# Runs a command with the toolchain out of reach. A private mount namespace with an empty
# read-only tmpfs over the toolchain's folder hides it even from ld.so.conf and the loader's cache;
# where namespaces are not allowed (a container without CAP_SYS_ADMIN), the bare environment and
# the checks above (no NEEDED entry or search path to reach it) have to do, and it says so.
home=$work/home
mkdir -p "$home/runtime" "$home/data"
chmod 0700 "$home/runtime"
bare=(env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 XDG_RUNTIME_DIR="$home/runtime"
      XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state"
      DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent TOOLCHAIN="$toolchain")
if unshare --mount --propagation private -- sh -c 'mount -t tmpfs -o ro,size=4k none "$1"' sh "$toolchain" 2>/dev/null; then
    hidden() {
        unshare --mount --propagation private -- sh -c 'mount -t tmpfs -o ro,size=4k none "$1" && shift && exec "$@"' \
            sh "$toolchain" "${bare[@]}" "$@"
    }
    step "the toolchain is hidden: an empty tmpfs over $toolchain in a private mount namespace"
    hidden sh -c '! test -e "$TOOLCHAIN/usr/bin/swift" && ! command -v swift >/dev/null' || fail "the toolchain is still visible"
else
    hidden() { "${bare[@]}" "$@"; }
    step "no mount namespace here: the programs run from a bare environment (env -i), $toolchain stays on disk"
    ! ldconfig -p | grep -F "$toolchain/" || echo "package-test: note: ld.so.conf lists $toolchain (harmless: the programs need nothing from it)"
fi

step "mprisd --version, mprisd-control --help"
printed=$(hidden timeout 30 /usr/bin/mprisd --version) || fail "mprisd --version failed"
[[ $(head -n 1 <<<"$printed") == "mprisd $upstream" ]] || fail "mprisd --version printed '$printed', not mprisd $upstream"
hidden timeout 30 /usr/bin/mprisd-control --help >/dev/null || fail "mprisd-control --help failed"
[[ $(hidden sh -c 'command -v mprisd') == /usr/bin/mprisd ]] || fail "mprisd is not on PATH as /usr/bin/mprisd"

# A 4-second stereo tone: long enough to be seen playing, paused and played again.
python3 - "$work/tone.wav" <<'PY'
import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(2); out.setsampwidth(2); out.setframerate(44100)
    out.writeframes(b"".join(struct.pack("<hh", v, v) for v in
                             (int(3000 * math.sin(2 * math.pi * 440 * i / 44100)) for i in range(44100 * 4))))
PY

# What the scripts run on a private session bus share (sourced by each).
cat > "$work/helpers.sh" <<'EOS'
set -euo pipefail
fail() { echo "package-test: FAILED: $*" >&2; exit 1; }
# Waits up to $1 seconds for the command after it to succeed (generous: a loaded 2-core machine).
wait_for() {
    local limit=$1; shift
    local deadline=$((SECONDS + limit))
    until "$@" >/dev/null 2>&1; do
        (( SECONDS < deadline )) || return 1
        sleep 0.1
    done
}
has_owner() {
    timeout 10 dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner "string:$1" | grep -q true
}
EOS

step "on a private session bus: the daemon activated by mprisd status, mprisd play with playerctl"
cat > "$work/session.sh" <<'EOS'
source "$HELPERS"
owner_pid() {
    timeout 10 dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.GetConnectionUnixProcessID "string:$1" | awk '{ print $2 }'
}

! has_owner org.mprisd.AudioPolicy || fail "a daemon runs before anything asked for it"
status=$(timeout 60 mprisd status) || fail "mprisd status failed (no daemon activated?)"
has_owner org.mprisd.AudioPolicy || fail "mprisd status did not leave an activated daemon on the bus"
daemon=$(owner_pid org.mprisd.AudioPolicy)
[[ $(readlink "/proc/$daemon/exe") == /usr/bin/mprisd ]] || fail "the activated daemon is $(readlink "/proc/$daemon/exe"), not /usr/bin/mprisd"
! grep -F "$TOOLCHAIN/" "/proc/$daemon/maps" || fail "the daemon maps files from the toolchain"
echo "package-test: the daemon (pid $daemon, /usr/bin/mprisd) was started by the bus for mprisd status; it says:"
sed 's/^/    /' <<<"$status"

timeout 120 mprisd play --device null --name pkgtest "$WAV" >"$HOME/play.log" 2>&1 &
player=$!
wait_for 60 sh -c 'playerctl -l | grep -qx pkgtest' || { cat "$HOME/play.log" >&2; fail "playerctl never listed pkgtest"; }
wait_for 30 sh -c '[ "$(playerctl -p pkgtest status)" = Playing ]' || fail "pkgtest is not Playing: $(playerctl -p pkgtest status 2>&1)"
[[ $(timeout 10 playerctl -p pkgtest metadata xesam:url) == *tone.wav ]] || fail "playerctl metadata: $(playerctl -p pkgtest metadata 2>&1)"
timeout 10 playerctl -p pkgtest pause
wait_for 30 sh -c '[ "$(playerctl -p pkgtest status)" = Paused ]' || fail "playerctl pause did not pause"
timeout 10 playerctl -p pkgtest play
wait_for 30 sh -c '[ "$(playerctl -p pkgtest status)" = Playing ]' || fail "playerctl play did not play"
wait_for 30 sh -c 'mprisd players | grep -q pkgtest' || fail "the daemon does not list the player: $(mprisd players 2>&1)"
timeout 10 playerctl -p pkgtest stop
play_status=0
wait "$player" || play_status=$?
(( play_status == 0 )) || { cat "$HOME/play.log" >&2; fail "mprisd play exited with $play_status"; }
! has_owner org.mpris.MediaPlayer2.pkgtest || fail "the MPRIS name outlived the player"
echo "package-test: mprisd play was listed, played, paused, played and stopped through playerctl"

kill -TERM "$daemon"
wait_for 30 sh -c "! kill -0 $daemon" || fail "the daemon did not stop on SIGTERM"
EOS
hidden HELPERS="$work/helpers.sh" WAV="$work/tone.wav" timeout 300 dbus-run-session -- bash "$work/session.sh" || fail "the session-bus checks failed"

step "systemd-analyze verify of the user unit"
hidden timeout 120 systemd-analyze --user verify /usr/lib/systemd/user/mprisd.service \
    || fail "systemd-analyze verify rejects /usr/lib/systemd/user/mprisd.service"
exposure=$(hidden timeout 120 systemd-analyze --user security --offline=yes /usr/lib/systemd/user/mprisd.service 2>/dev/null \
    | grep -o 'Overall exposure level for mprisd.service: [0-9.]*' | grep -o '[0-9.]*$' || true)
step "systemd-analyze security: exposure ${exposure:-unknown} (9.6 without the hardening)"
[[ -z $exposure ]] || awk -v e="$exposure" 'BEGIN { exit !(e < 9.0) }' || fail "the unit's exposure is $exposure: its hardening is gone"

step "the daemon under the unit's hardening (scripts/unit-sandbox.py: seccomp, no_new_privs, MDWE, umask)"
cp scripts/unit-sandbox.py "$work/unit-sandbox.py"
cat > "$work/hardened.sh" <<'EOS'
source "$HELPERS"
sandbox=(/usr/bin/python3 "$SANDBOX" /usr/lib/systemd/user/mprisd.service --)
# The filter is live: a socket of another family than AF_UNIX is refused.
! "${sandbox[@]}" /usr/bin/python3 -c 'import socket; socket.socket(socket.AF_INET)' 2>/dev/null \
    || fail "the sandbox let an AF_INET socket through"
"${sandbox[@]}" /usr/bin/mprisd --verbose 2>"$HOME/hardened.log" &
daemon=$!
# Owned by this daemon before anyone asks (a status would otherwise have the bus activate another).
wait_for 60 has_owner org.mprisd.AudioPolicy || { cat "$HOME/hardened.log" >&2; fail "the hardened daemon never owned its name"; }
timeout 30 mprisd status >/dev/null || { cat "$HOME/hardened.log" >&2; fail "the hardened daemon does not answer mprisd status"; }
grep -q '^Umask:[[:space:]]*0077' "/proc/$daemon/status" || fail "the daemon runs without UMask=0077"
grep -q '^NoNewPrivs:[[:space:]]*1' "/proc/$daemon/status" || fail "the daemon runs without no_new_privs"
grep -q '^Seccomp:[[:space:]]*2' "/proc/$daemon/status" || fail "the daemon runs without its seccomp filter"
grep -q 'journal guard started' "$HOME/hardened.log" || fail "no journal guard under the hardening: $(cat "$HOME/hardened.log")"
timeout 120 mprisd play --device null --name hardened "$WAV" >"$HOME/play.log" 2>&1 &
player=$!
wait_for 60 sh -c 'mprisd players | grep -q hardened' || fail "the hardened daemon does not follow the player: $(mprisd players 2>&1)"
wait_for 30 sh -c '[ "$(playerctl -p hardened status)" = Playing ]' || fail "the player is not Playing under the hardened daemon"
timeout 10 playerctl -p hardened stop
wait "$player" || fail "mprisd play failed under the hardened daemon: $(cat "$HOME/play.log")"
kill -TERM "$daemon"
status=0
wait "$daemon" || status=$?
(( status == 0 )) || fail "the hardened daemon exited with $status: $(cat "$HOME/hardened.log")"
grep 'unit-sandbox: applied' "$HOME/hardened.log" | sed 's/^/    /'
EOS
hidden HELPERS="$work/helpers.sh" SANDBOX="$work/unit-sandbox.py" WAV="$work/tone.wav" timeout 300 dbus-run-session -- bash "$work/hardened.sh" \
    || fail "the daemon under the unit's hardening failed"
grep -qx "Exec=/usr/bin/mprisd" /usr/share/dbus-1/services/org.mprisd.AudioPolicy.service || fail "the activation file does not start /usr/bin/mprisd"

step "dpkg --purge"
mapfile -t listed < <(dpkg-query -L mprisd)
timeout 120 dpkg --purge mprisd
installed=0
if dpkg-query -W -f='${Status}' mprisd 2>/dev/null | grep -q "installed\|config-files"; then
    fail "dpkg still knows mprisd: $(dpkg-query -W -f='${Status}' mprisd)"
fi
left=()
for path in "${listed[@]}"; do
    [[ -n $path && $path != /. ]] || continue
    [[ -e $path || -L $path ]] || continue
    # A folder stays when other packages' files are in it or another package owns it too.
    if [[ -d $path && ! -L $path ]] && { [[ -n $(ls -A "$path") ]] || dpkg-query -S "$path" >/dev/null 2>&1; }; then
        continue
    fi
    left+=("$path")
done
(( ${#left[@]} == 0 )) || fail "left after the purge: ${left[*]}"
enablement=$(find /etc/systemd/user /var/lib/systemd/deb-systemd-user-helper-enabled /var/lib/systemd/deb-systemd-user-helper-masked \
    -name 'mprisd*' 2>/dev/null || true)
[[ -z $enablement ]] || fail "the enablement is left after the purge: $enablement"
step "passed: built, lintian-clean, installed, ran without the toolchain, verified, purged (${#listed[@]} paths gone or shared)"

# 8. The Debian 13 package: the same programs, Depends from trixie's libraries, installed, run and
#    purged in a Debian 13 root (scripts/package-test-debian13.sh).
step "the Debian 13 package (scripts/package.sh --suite trixie)"
trixie_deb=$(scripts/package.sh --suite trixie --output "$work" | tail -n 1)
[[ -f $trixie_deb ]] || fail "scripts/package.sh --suite trixie made no package"
trixie_status=0
scripts/package-test-debian13.sh "$trixie_deb" || trixie_status=$?
(( trixie_status == 0 || trixie_status == 77 )) || fail "the Debian 13 package (above)"
