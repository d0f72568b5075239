#!/usr/bin/env bash
# Runs every test: installs what is missing, builds with warnings as errors, runs `swift test`.
# Each test starts its own private dbus-daemon; nothing touches the machine's buses.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/install-packages.sh
swift build -Xswiftc -warnings-as-errors
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build "$@"
