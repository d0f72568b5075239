#!/usr/bin/env bash
# memory.sh — peak resident memory (VmHWM) of the policy daemon with 0, 100 and 1,000 registered
# sessions, and of `mprisd play` (and mpv + mpv-mpris) playing (issue 7).
#
#   Benchmarks/memory.sh > result.md      # COUNTS="0 100 1000" CONNECTIONS=16 DECISIONS=20000 PLAY_SECONDS=10
#
# For each count a fresh daemon (`mprisd`) on a private bus; bench-policy-client registers the
# sessions over CONNECTIONS connections (the configuration mix of bench-session-storm) and holds
# them; the daemon's GetStatus must list them all; then VmHWM and VmRSS are read from
# /proc/PID/status. With DECISIONS > 0 the largest count is measured once more after a storm of
# that many activations/deactivations on its sessions. Then `mprisd play --device null` plays a
# tone for PLAY_SECONDS (registered with a daemon, as on a desktop), and mpv with mpv-mpris plays
# the same file (--ao=null) for as long. Markdown on stdout, progress on stderr.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
COUNTS=${COUNTS:-"0 100 1000"}
# The daemon takes at most 64 sessions per connection: 16 connections hold 1,000.
CONNECTIONS=${CONNECTIONS:-16}
DECISIONS=${DECISIONS:-20000}
PLAY_SECONDS=${PLAY_SECONDS:-10}
MPV_MPRIS=${MPV_MPRIS:-/usr/lib/mpv-mpris/mpris.so}

build mprisd bench-policy-client
start_bus
: > "$work/rows"

start_daemon() {
    spawn daemon "$bin/mprisd"
    wait_name org.mprisd.AudioPolicy
}
session_count() { # the number of sessions in the daemon's status document
    dbus-send --session --print-reply=literal --dest=org.mprisd.AudioPolicy /org/mprisd/AudioPolicy \
        org.mprisd.AudioPolicy1.GetStatus |
        python3 -c 'import json, sys; print(len(json.loads(sys.stdin.read().strip())["sessions"]))'
}
wait_holding() { # wait_holding TAG
    for _ in $(seq 1200); do
        grep -qx holding "$work/$1.out" 2>/dev/null && return 0
        kill -0 "${pids[$1]}" 2>/dev/null || die "$1 exited: $(cat "$work/$1.err")"
        sleep 0.05
    done
    die "$1 did not register its sessions within 60 s"
}
row() { # row WHAT PID NOTE
    echo "| $1 | $(vm_hwm "$2") | $(vm_rss "$2") | $3 |" >> "$work/rows"
    log "$1: VmHWM $(vm_hwm "$2") kB, VmRSS $(vm_rss "$2") kB"
}

largest=0
for count in $COUNTS; do
    (( count > largest )) && largest=$count
done
for count in $COUNTS; do
    start_daemon
    note="fresh daemon"
    if (( count > 0 )); then
        spawn client "$bin/bench-policy-client" --sessions "$count" --connections "$CONNECTIONS" --hold
        wait_holding client
        note="$(head -n 1 "$work/client.out" | sed 's/^registered //')"
    fi
    sleep 1
    listed=$(session_count)
    [[ $listed == "$count" ]] || die "the daemon lists $listed sessions, expected $count"
    row "daemon, $count sessions" "${pids[daemon]}" "$note"
    if (( count == largest && DECISIONS > 0 )); then
        stop_tag client
        spawn client "$bin/bench-policy-client" --sessions "$count" --connections "$CONNECTIONS" \
            --decisions "$DECISIONS" --hold
        wait_holding client
        sleep 1
        row "daemon, $count sessions again + $DECISIONS decisions" "${pids[daemon]}" \
            "same daemon: the first $count unregistered (client gone), $count new ones, then the storm"
    fi
    stop_tag client
    stop_tag daemon
done

make_tone "$work/tone.wav" 10
start_daemon
spawn play "$bin/mprisd" play --device null --loop track --name bench "$work/tone.wav"
wait_name org.mpris.MediaPlayer2.bench
sleep "$PLAY_SECONDS"
row "\`mprisd play\` playing ${PLAY_SECONDS} s" "${pids[play]}" "--device null, a 44.1 kHz stereo WAV, registered with the daemon"
stop_tag play
if [[ -f $MPV_MPRIS ]] && command -v mpv > /dev/null; then
    spawn mpv mpv --no-config --ao=null --vo=null --no-terminal --script="$MPV_MPRIS" --loop-file=inf "$work/tone.wav"
    wait_name org.mpris.MediaPlayer2.mpv
    sleep "$PLAY_SECONDS"
    row "mpv + mpv-mpris playing ${PLAY_SECONDS} s" "${pids[mpv]}" "--ao=null, the same file"
    stop_tag mpv
fi

echo "### Memory ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- Private dbus-daemon; sessions registered by \`bench-policy-client --connections $CONNECTIONS --hold\`, counted in the daemon's GetStatus"
echo
echo "| Process | VmHWM kB | VmRSS kB | notes |"
echo "|---|---:|---:|---|"
cat "$work/rows"
