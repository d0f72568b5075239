#!/usr/bin/env bash
# The threaded libraries' tests once more under ThreadSanitizer: DBus, the policy client and daemon, the audio-server link,
# SystemContext, RemoteControl and Player, built with `--sanitize=thread` in a scratch directory of their own
# (.build-tsan), so the normal build is left alone. Any report fails the run (halt_on_error).
# scripts/test.sh runs it after the normal tests; an argument replaces the default test filter.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
filter=${1:-'^(DBusTests|AudioPolicyClientTests|AudioPolicyDaemonTests|AudioServerTests|SystemContextTests|RemoteControlTests|PlayerTests)\.'}
scratch=(--sanitize=thread --scratch-path .build-tsan)
swift build --build-tests "${scratch[@]}"
# Swift's Mutex hands a contended lock over inside an uninstrumented library; tsan-mutex.c tells
# TSan about it (see there). Without it every contended Mutex reads as a race.
clang -shared -fPIC -O2 -Wall -Werror -o .build-tsan/libtsan-mutex.so scripts/tsan-mutex.c -ldl
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
LD_PRELOAD="$PWD/.build-tsan/libtsan-mutex.so" \
    swift test --skip-build "${scratch[@]}" --disable-swift-testing --filter "$filter" 2>&1 | tee "$log" || status=$?
if grep -q "WARNING: ThreadSanitizer" "$log"; then
    echo "tsan: ThreadSanitizer reported a problem (above)" >&2
    status=1
fi
summary=$(grep -E "Executed [0-9]+ tests?, with .*[0-9]+ failures?" "$log" | tail -n 1 || true)
echo "tsan: ${summary:-no XCTest summary found}"
(( status != 0 )) || [[ -n $summary ]] || status=1
exit "$status"
