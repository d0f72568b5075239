#!/usr/bin/env bash
# Installs mprisd for the current user: the binary into ~/.local/bin, the systemd user unit, the
# D-Bus activation file, the man page and the bash and zsh completions, then enables and starts the
# daemon when a systemd user manager runs.
#
#   scripts/install-user.sh              build (release) and install
#   PREFIX=/opt/mprisd scripts/install-user.sh      binary into $PREFIX/bin instead
#   DESTHOME=/tmp/h scripts/install-user.sh         install under another home (tests, packaging);
#                                                   nothing is enabled or started then
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
home=${DESTHOME:-$HOME}
bindir=${PREFIX:-$home/.local}/bin
if [[ -z ${MPRISD_BINARY:-} ]]; then
    swift build -c release --product mprisd >&2
    swift build -c release --product mprisd-control >&2
    MPRISD_BINARY=$(swift build -c release --show-bin-path)/mprisd
fi
install -D -m 0755 "$MPRISD_BINARY" "$bindir/mprisd"
# `mprisd control` for key bindings, quicker to start (issue 16); built next to mprisd.
control_binary=$(dirname "$MPRISD_BINARY")/mprisd-control
[[ -x $control_binary ]] && install -D -m 0755 "$control_binary" "$bindir/mprisd-control"
units=${XDG_CONFIG_HOME:-$home/.config}/systemd/user
data=${XDG_DATA_HOME:-$home/.local/share}
if [[ -n ${DESTHOME:-} ]]; then units=$home/.config/systemd/user; data=$home/.local/share; fi
services=$data/dbus-1/services
mkdir -p "$units" "$services"
sed "s|@BINDIR@|$bindir|g" dist/mprisd.service > "$units/mprisd.service"
sed "s|@BINDIR@|$bindir|g" dist/org.mprisd.AudioPolicy.service > "$services/org.mprisd.AudioPolicy.service"
install -D -m 0644 docs/mprisd.1 "$data/man/man1/mprisd.1"
install -D -m 0644 dist/completions/mprisd.bash "$data/bash-completion/completions/mprisd"
install -D -m 0644 dist/completions/_mprisd "$data/zsh/site-functions/_mprisd"
echo "installed $bindir/mprisd, $units/mprisd.service, $services/org.mprisd.AudioPolicy.service"
echo "installed man mprisd ($data/man/man1), completions for bash and zsh (zsh: fpath+=($data/zsh/site-functions) before compinit)"
if [[ -z ${DESTHOME:-} ]] && systemctl --user show-environment >/dev/null 2>&1; then
    systemctl --user daemon-reload
    systemctl --user enable --now mprisd.service
    echo "mprisd.service enabled and started (journalctl --user -u mprisd to read its log)"
else
    echo "no systemd user manager here: the daemon starts on demand through D-Bus activation, or run 'mprisd'"
fi
