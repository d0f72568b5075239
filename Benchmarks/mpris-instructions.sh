#!/usr/bin/env bash
# mpris-instructions.sh — instructions the server executes per MPRIS call (issue 7), `mprisd play`
# against the plain-libdbus C reference player, counted by callgrind: a figure that does not move
# with the machine's load, to tell a real change of the binding's cost from the ±5 % noise of the
# round-trip benchmark (mpris-roundtrip.sh) on a shared 2-core machine.
#
#   Benchmarks/mpris-instructions.sh > result.md      # CALLS=2000 METHODS="Get GetAll PlayPause"
#
# For each target and method: the server starts under `valgrind --tool=callgrind` on a private
# dbus-daemon (mprisd: `play --device null --loop track` of a 10 s tone; C: bench-mpris-server-c),
# takes 200 unmeasured calls from bench-mpris-client, has its counters zeroed
# (`callgrind_control -z`), takes CALLS calls, and dumps (`callgrind_control -d`). Reported: user-
# space instructions (Ir) per call of the thread that serves the bus — mprisd's `dbus-session`
# thread (callgrind --separate-threads; the thread whose dump names `dbus_connection_dispatch`),
# the C server's only thread — and the ratio to C. Kernel
# time (the socket calls, identical for both: strace -c shows one poll, two recvmsg and one sendmsg
# per call each) is not counted. Needs valgrind.
#
# Environment: CALLS METHODS; SCRATCH=<dir> (swift build --scratch-path); KEEP=<dir> keeps the
# callgrind dumps there (`cg.TARGET.METHOD.1-NN`, one per thread) for `callgrind_annotate`.
# Markdown on stdout.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

CALLS=${CALLS:-2000}
METHODS=${METHODS:-Get GetAll PlayPause}
[[ $CALLS =~ ^[1-9][0-9]*$ ]] || die "CALLS must be a positive integer"
command -v valgrind > /dev/null && command -v callgrind_control > /dev/null ||
    die "valgrind (with callgrind_control) is needed: apt-get install valgrind"

build mprisd bench-mpris-server-c bench-mpris-client
start_bus
make_tone "$work/tone.wav" 10

# count TARGET METHOD: prints "SERVING ALL": Ir per call of the thread serving the bus (the
# busiest one) and of all threads together
count() {
    local target=$1 method=$2 out="$work/cg.$1.$2" name=org.mpris.MediaPlayer2.counted
    local server=("$bin/bench-mpris-server-c" --name "$name")
    [[ $target == mprisd ]] && server=("$bin/mprisd" play --device null --loop track --name counted "$work/tone.wav")
    spawn "$target-$method" valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out" "${server[@]}"
    wait_name "$name" 60
    "$bin/bench-mpris-client" --dest "$name" --method "$method" --calls 200 --warmup 0 > /dev/null
    callgrind_control -z "${pids[$target-$method]}" > /dev/null
    "$bin/bench-mpris-client" --dest "$name" --method "$method" --calls "$CALLS" --warmup 0 > /dev/null
    callgrind_control -d "${pids[$target-$method]}" > /dev/null
    stop_tag "$target-$method"
    wait_gone "$name"
    # The dump of the zeroed interval, one file per thread (`out.1-NN`).
    compgen -G "$out.1-*" > /dev/null || die "no callgrind dump for $target $method"
    [[ -z ${KEEP:-} ]] || cp "$out".1-* "$KEEP"/
    # The serving thread is the one that dispatches the bus's messages (its dump names
    # `dbus_connection_dispatch`), not simply the busiest: under load, mprisd's audio thread,
    # catching up with the silent output's wall clock under valgrind, can outdo it.
    local serving_dumps
    serving_dumps=$(grep -l 'dbus_connection_dispatch' "$out".1-* || true)
    [[ -n $serving_dumps ]] || die "no thread of $target dispatched bus messages ($method)"
    # shellcheck disable=SC2086  # one file name per word
    printf '%s %s' \
        "$(cat $serving_dumps | awk -v n="$CALLS" '/^summary:/ { if ($2 > top) top = $2 } END { printf "%.0f", top / n }')" \
        "$(cat "$out".1-* | awk -v n="$CALLS" '/^summary:/ { all += $2 } END { printf "%.0f", all / n }')"
}

log "counting (each server under callgrind; about a minute per method)"
declare -A serving=() all=()
for method in $METHODS; do
    for target in c mprisd; do
        read -r serving[$target.$method] all[$target.$method] <<< "$(count "$target" "$method")"
        log "$method $target: ${serving[$target.$method]} instructions per call (all threads: ${all[$target.$method]})"
    done
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "### MPRIS call cost in instructions ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line); $(valgrind --version); libdbus $(pkg-config --modversion dbus-1 2>/dev/null || echo '?')"
echo "- Each server alone under callgrind on a private dbus-daemon; $CALLS calls counted after 200 unmeasured ones; user-space instructions (Ir) per call of the thread serving the bus, and of all the process's threads (mprisd also plays: decoding and the silent output's pacing)"
echo
echo "| Call | C Ir/call | mprisd Ir/call | ×C | C all threads | mprisd all threads | ×C |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for method in $METHODS; do
    echo "| $method | ${serving[c.$method]} | ${serving[mprisd.$method]} | $(ratio "${serving[mprisd.$method]}" "${serving[c.$method]}")× |" \
        "${all[c.$method]} | ${all[mprisd.$method]} | $(ratio "${all[mprisd.$method]}" "${all[c.$method]}")× |"
done
