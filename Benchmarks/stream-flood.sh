#!/usr/bin/env bash
# stream-flood.sh — what a flood of streams costs the daemon's memory (issue 24): its peak (VmHWM)
# and resident memory (VmRSS) before, while and after STREAMS playback streams appear at once.
#
#   Benchmarks/stream-flood.sh > result.md    # SERVERS="pulseaudio pipewire" STREAMS=500 PER_SINK=100 PER_CLIENT=50
#
# Per server: a private bus, a fresh server (audio-servers.sh), a fresh daemon (release build).
# STREAMS/PER_SINK bench-pulse-streams processes start together, each on a null sink of its own
# (PipeWire 0.3.65 refuses the 129th stream on one sink) with PER_CLIENT streams per libpulse
# client (50: within the daemon's quota of 64 followed streams per client, so all 500 are
# followed; with more, each client's streams past 64 are not, and cost nothing). Read once every
# stream is ready and the daemon settled (its CPU time unchanged for 2 s), then after they are all
# gone. Markdown on stdout, progress on stderr.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/audio-servers.sh"
SERVERS=${SERVERS:-"pulseaudio pipewire"}
STREAMS=${STREAMS:-500}
PER_SINK=${PER_SINK:-100}
PER_CLIENT=${PER_CLIENT:-50}

build mprisd bench-pulse-streams
: > "$work/rows"
versions=()

listed() { # the daemon's status: streams listed
    timeout 20 "$bin/mprisd" status --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin).get("streams") or []))'
}
row() { # row SERVER STATE NOTE
    local pid=${pids[daemon]}
    echo "| $1 | $2 | $(vm_rss "$pid") | $(vm_hwm "$pid") | $3 |" >> "$work/rows"
    log "$1: $2: VmRSS $(vm_rss "$pid") kB, VmHWM $(vm_hwm "$pid") kB"
}

groups=$(( (STREAMS + PER_SINK - 1) / PER_SINK ))
for server in $SERVERS; do
    start_bus
    start_server "$server"
    versions+=("$server: $(server_version)")
    for (( g = 0; g < groups; g++ )); do
        timeout 10 pactl load-module module-null-sink sink_name=flood-$g > /dev/null
    done
    spawn daemon "$bin/mprisd"
    wait_name org.mprisd.AudioPolicy
    for (( i = 0; i < 400; i++ )); do grep -q "connected to the audio server" "$work/daemon.err" && break; sleep 0.05; done
    grep -q "connected to the audio server" "$work/daemon.err" || die "the daemon did not connect"
    settle "${pids[daemon]}" 120
    row "$server" "no streams, settled" "-"

    for (( g = 0; g < groups; g++ )); do
        n=$(( g == groups - 1 ? STREAMS - g * PER_SINK : PER_SINK ))
        spawn "flood$g" "$bin/bench-pulse-streams" --streams "$n" --per-client "$PER_CLIENT" --role music --sink "flood-$g"
    done
    for (( g = 0; g < groups; g++ )); do
        for (( i = 0; i < 1800; i++ )); do
            grep -q '^ready' "$work/flood$g.out" && break
            kill -0 "${pids[flood$g]}" 2>/dev/null || die "bench-pulse-streams: $(cat "$work/flood$g.err")"
            sleep 0.1
        done
        grep -q '^ready' "$work/flood$g.out" || die "the streams did not all start: $(cat "$work/flood$g.err")"
    done
    wait_stream_count "$STREAMS" 180
    settle "${pids[daemon]}" 120
    row "$server" "$STREAMS streams appeared at once, settled" "$(listed) in status"

    for (( g = 0; g < groups; g++ )); do stop_tag "flood$g"; done
    wait_stream_count 0 180
    settle "${pids[daemon]}" 120
    row "$server" "all gone, settled" "$(listed) in status"
    stop_tag daemon
    stop_server
    stop_tag bus
done

echo "### Stream flood: $STREAMS streams at once ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- Servers: $(IFS=';'; echo "${versions[*]}")"
echo "- Streams: $groups bench-pulse-streams started together, each on a null sink of its own, $PER_CLIENT streams per libpulse client"
echo
echo "| server | state | VmRSS kB | VmHWM kB | note |"
echo "|---|---|---:|---:|---|"
cat "$work/rows"
