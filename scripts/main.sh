#!/usr/bin/env bash
# The main job: builds mprisd (release) and runs it with the given arguments (default: --help).
#
# Where the machine lacks something the program falls back to an embedded default, and says so:
# without a session bus it runs inside a private one (dbus-run-session).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/install-packages.sh
swift build -c release --product mprisd >&2
binary=$(swift build -c release --show-bin-path)/mprisd
(( $# > 0 )) || set -- --help
if [[ -z ${DBUS_SESSION_BUS_ADDRESS:-} && ! -S ${XDG_RUNTIME_DIR:-/nonexistent}/bus ]]; then
    echo "mprisd: no session bus here; running inside a private one (dbus-run-session)" >&2
    exec dbus-run-session -- "$binary" "$@"
fi
exec "$binary" "$@"
