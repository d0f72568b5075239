#!/usr/bin/env bash
# audio-idle.sh — wake-ups of the daemon next to an audio server (issue 14): connected to an idle
# server, with idle streams, waiting for an absent server, and around a server restart.
#
#   Benchmarks/audio-idle.sh > result.md     # SERVERS="pulseaudio pipewire" SECONDS_IDLE=30 STREAMS=4
#
# Per server: a private bus, a fresh server (audio-servers.sh), a fresh daemon (release build)
# that found it by itself; then Benchmarks/wakeups.sh over SECONDS_IDLE seconds
#   1. with no stream;
#   2. with STREAMS corked (paused) streams of bench-pulse-streams --corked, and as many silent
#      playing streams (the server feeds and mixes them; they send the daemon no events);
#   3. after a server restart (SIGTERM, started again in the same directories): the wake-ups
#      from just before the stop to the daemon's "connected" log line (the burst), then
#      SECONDS_IDLE seconds more (expect 0).
# Then once: the daemon with no server at all (no socket, no PULSE_SERVER) for SECONDS_IDLE
# seconds, and the burst when PipeWire starts and the daemon finds it.
# Markdown on stdout, progress on stderr.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/audio-servers.sh"
SERVERS=${SERVERS:-"pulseaudio pipewire"}
SECONDS_IDLE=${SECONDS_IDLE:-30}
STREAMS=${STREAMS:-4}

build mprisd bench-pulse-streams
: > "$work/rows"

switches() { # switches PID: "TID SWITCHES" per thread now (voluntary + nonvoluntary)
    local dir
    for dir in /proc/"$1"/task/*; do
        awk -v tid="${dir##*/}" '/^(non)?voluntary_ctxt_switches:/ { n += $2 } END { print tid, n + 0 }' "$dir/status" 2>/dev/null || true
    done
}
burst() { # burst BEFORE AFTER: "N (K threads ended, M new)": switches of threads alive at the end
    # since BEFORE (a new thread's from zero); the switches of threads that ended are lost
    awk 'NR == FNR { a[$1] = $2; next } { n += $2 - ($1 in a ? a[$1] : 0); if (!($1 in a)) born++; seen[$1] = 1 }
         END { for (t in a) if (!(t in seen)) ended++; printf "%d (threads: %d ended, %d new)", n, ended, born }' \
        <(echo "$1") <(echo "$2")
}
idle_row() { # idle_row SERVER WHAT: wakeups.sh over SECONDS_IDLE seconds
    local out
    out=$("$here/wakeups.sh" "${pids[daemon]}" "$SECONDS_IDLE")
    log "$1, $2: $(head -n 1 <<< "$out")"
    echo "| $1 | $2 | $SECONDS_IDLE s | $(head -n 1 <<< "$out" | sed -E 's/.* wakeups=([0-9]+) per_second=([0-9.]+)/\1 | \2/') |" >> "$work/rows"
    sed -n '2,$p' <<< "$out" | awk '$0 !~ /wakeups=0$/' | sed "s/^/    /" >&2 || true
}
connected_count() { grep -c "connected to the audio server" "$work/daemon.err" || true; }
wait_connected() { # wait_connected N: until the daemon has logged N connections (20 s)
    local i
    for (( i = 0; i < 400; i++ )); do
        (( $(connected_count) >= $1 )) && return 0
        sleep 0.05
    done
    die "the daemon did not connect (#$1) within 20 s: $(tail -n 20 "$work/daemon.err")"
}
wait_stream_count() { # wait_stream_count N: until pactl lists N sink inputs (30 s)
    local i
    for (( i = 0; i < 300; i++ )); do
        [[ $(timeout 5 pactl list short sink-inputs 2>/dev/null | wc -l) == "$1" ]] && return 0
        sleep 0.1
    done
    die "the server does not show $1 sink inputs"
}

for server in $SERVERS; do
    start_bus
    start_server "$server"
    spawn daemon "$bin/mprisd"
    wait_name org.mprisd.AudioPolicy
    wait_connected 1
    sleep 2
    idle_row "$server" "connected, no stream"

    spawn corked "$bin/bench-pulse-streams" --streams "$STREAMS" --corked --per-client 1 --role music
    spawn playing "$bin/bench-pulse-streams" --streams "$STREAMS" --per-client 1 --role music
    wait_stream_count $(( 2 * STREAMS ))
    sleep 2
    idle_row "$server" "connected, $STREAMS corked + $STREAMS silent playing streams"
    stop_tag corked
    stop_tag playing
    wait_stream_count 0

    before=$(switches "${pids[daemon]}")
    began=$(date +%s.%N)
    stop_server
    start_server "$server"
    wait_connected 2
    burst=$(burst "$before" "$(switches "${pids[daemon]}")")
    took=$(awk -v a="$began" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "| $server | restart: stop → start → daemon connected again | $took s | $burst | (burst) |" >> "$work/rows"
    log "$server restart: $burst wake-ups in $took s"
    sleep 2
    idle_row "$server" "after the restart"
    stop_tag daemon
    stop_server
    stop_tag bus
done

# No server at all: nothing listens in $XDG_RUNTIME_DIR and PULSE_SERVER is unset.
start_bus
rm -rf "$XDG_RUNTIME_DIR" && mkdir -m 700 "$XDG_RUNTIME_DIR"
unset PULSE_SERVER
spawn daemon "$bin/mprisd"
wait_name org.mprisd.AudioPolicy
sleep 2
idle_row none "no server (daemon waits for one)"
before=$(switches "${pids[daemon]}")
began=$(date +%s.%N)
start_server pipewire
wait_connected 1
burst=$(burst "$before" "$(switches "${pids[daemon]}")")
took=$(awk -v a="$began" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "| pipewire | appears: start → daemon connected | $took s | $burst | (burst) |" >> "$work/rows"
sleep 2
idle_row pipewire "after it appeared"

echo "### Wake-ups next to an audio server ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- Daemon: release build, private bus; wake-ups = voluntary + involuntary context switches of all its threads (Benchmarks/wakeups.sh)"
echo
echo "| server | state | interval | wake-ups | per second |"
echo "|---|---|---:|---:|---:|"
cat "$work/rows"
