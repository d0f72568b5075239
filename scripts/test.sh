#!/usr/bin/env bash
# Runs every test: installs what is missing, builds with warnings as errors, runs `swift test`, then
# (scripts/package-test.sh) builds the Debian package, installs it, runs it without the toolchain
# and purges it — where it can: as root with dpkg, as in CI; skipped with its reason elsewhere —
# and last (scripts/tsan.sh) the threaded libraries' tests once more under ThreadSanitizer.
# Each test starts its own private dbus-daemon; nothing touches the machine's buses.
# Extra arguments go to `swift test` (for example `--filter DBusTests`) and skip the package test
# and the TSan pass.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/install-packages.sh
swift build -Xswiftc -warnings-as-errors
swift build --build-tests -Xswiftc -warnings-as-errors
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
# The tests are XCTest cases; the (empty) Swift Testing pass would close with "0 tests".
swift test --skip-build --disable-swift-testing "$@" 2>&1 | tee "$log" || status=$?
# XCTest's summary as the plain closing line: "N passed, N failed".
summary=$(grep -E "Executed [0-9]+ tests?, with .*[0-9]+ failures?" "$log" | tail -n 1 || true)
if [[ $summary =~ Executed\ ([0-9]+)\ tests?,\ with\ (([0-9]+)\ tests?\ skipped\ and\ )?([0-9]+)\ failure ]]; then
    total=${BASH_REMATCH[1]}
    skipped=${BASH_REMATCH[3]:-0}
    failed=${BASH_REMATCH[4]}
    closing="tests: $((total - failed - skipped)) passed, $failed failed, $skipped skipped"
    (( failed == 0 )) || status=1
else
    closing="tests: no XCTest summary found"
    (( status != 0 )) || status=1
fi
package=
if (( $# == 0 )); then
    # After the tests, not alongside them: its release build would take their CPU (2 cores in CI).
    package_status=0
    scripts/package-test.sh || package_status=$?
    case $package_status in
        0) package="package: passed (built, lintian-clean, installed, run without the toolchain, purged)" ;;
        77) package="package: skipped (see package-test above)" ;;
        *) package="package: FAILED"; status=1 ;;
    esac
    scripts/tsan.sh || status=1
fi
# The plain closing line comes last, after the ThreadSanitizer pass (which prints its own summary).
[[ -z $package ]] || echo "$package"
# The failed cases and their first error lines again at the very end, where a truncated log keeps them.
grep -E ": error: |^Test Case '.*' failed" "$log" | sed 's/^/failed: /' | head -n 40 || true
echo "$closing"
exit "$status"
