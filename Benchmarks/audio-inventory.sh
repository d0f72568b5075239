#!/usr/bin/env bash
# audio-inventory.sh — what 200 streams cost the daemon (issue 14): its CPU time and memory with
# 0 and with STREAMS streams in the server's inventory, and the CPU it spends absorbing them
# appearing and disappearing.
#
#   Benchmarks/audio-inventory.sh > result.md    # SERVERS="pulseaudio pipewire" STREAMS=200 PER_CLIENT=10
#
# Per server: a private bus, a fresh server (audio-servers.sh), a fresh daemon (release build).
# Both servers take at most 64 clients, so 200 paplay processes cannot all connect: the streams
# are bench-pulse-streams' (STREAMS silent 44.1 kHz playback streams, PER_CLIENT per libpulse
# client: 20 clients for 200, each stream with media.role=music), half of them on a second null
# sink: PipeWire 0.3.65 refuses the 129th stream on one sink (the stream fails with "Timeout"). Measured after the daemon
# settled (its CPU time unchanged for 2 s): utime+stime (clock ticks → ms), the run time the
# scheduler counted for all its threads (/proc/PID/task/*/schedstat, ns), VmRSS and VmHWM.
# The daemon's own `mprisd status --json` (which costs it CPU) is read only after each figure,
# to check it lists the streams. Markdown on stdout, progress on stderr.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/audio-servers.sh"
SERVERS=${SERVERS:-"pulseaudio pipewire"}
STREAMS=${STREAMS:-200}
PER_CLIENT=${PER_CLIENT:-10}

build mprisd bench-pulse-streams
: > "$work/rows"
versions=()
tick_ms=$(awk -v hz="$(getconf CLK_TCK)" 'BEGIN { print 1000 / hz }')

listed() { # the daemon's status: streams listed
    timeout 20 "$bin/mprisd" status --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin).get("streams") or []))'
}
snapshot() { # snapshot: "ticks ns rss hwm" of the daemon now
    echo "$(cpu_ticks "${pids[daemon]}") $(run_ns "${pids[daemon]}") $(vm_rss "${pids[daemon]}") $(vm_hwm "${pids[daemon]}")"
}
ms_between() { # ms_between "T0 N0 ..." "T1 N1 ...": "ticks-ms (schedstat-ms)"
    awk -v a="$1" -v b="$2" -v t="$tick_ms" 'BEGIN { split(a, x, " "); split(b, y, " ");
        printf "%.0f | %.1f", (y[1] - x[1]) * t, (y[2] - x[2]) / 1e6 }'
}
row() { # row SERVER STATE SNAPSHOT CPU-SINCE-START LISTED
    local s=($3)
    echo "| $1 | $2 | $4 | ${s[2]} | ${s[3]} | $5 |" >> "$work/rows"
}

for server in $SERVERS; do
    start_bus
    start_server "$server"
    versions+=("$server: $(server_version)")
    spawn daemon "$bin/mprisd"
    wait_name org.mprisd.AudioPolicy
    for (( i = 0; i < 400; i++ )); do grep -q "connected to the audio server" "$work/daemon.err" && break; sleep 0.05; done
    grep -q "connected to the audio server" "$work/daemon.err" || die "the daemon did not connect"
    settle "${pids[daemon]}"
    zero=$(snapshot)
    row "$server" "0 streams, settled (CPU since the daemon started)" "$zero" "$(ms_between "0 0" "$zero")" "$(listed)"
    settle "${pids[daemon]}"
    before=$(snapshot)

    # Half the streams on a second null sink: PipeWire 0.3.65 takes at most 128 on one sink.
    timeout 10 pactl load-module module-null-sink sink_name=bench-second > /dev/null
    spawn streams1 "$bin/bench-pulse-streams" --streams $(( STREAMS - STREAMS / 2 )) --per-client "$PER_CLIENT" --role music
    spawn streams2 "$bin/bench-pulse-streams" --streams $(( STREAMS / 2 )) --per-client "$PER_CLIENT" --role music --sink bench-second
    for tag in streams1 streams2; do
        for (( i = 0; i < 1200; i++ )); do
            grep -q '^ready' "$work/$tag.out" && break
            kill -0 "${pids[$tag]}" 2>/dev/null || die "bench-pulse-streams: $(cat "$work/$tag.err")"
            sleep 0.1
        done
        grep -q '^ready' "$work/$tag.out" || die "the streams did not all start: $(cat "$work/$tag.err")"
    done
    wait_stream_count "$STREAMS"
    settle "${pids[daemon]}"
    full=$(snapshot)
    row "$server" "$STREAMS streams appeared, settled (CPU absorbing them)" "$full" "$(ms_between "$before" "$full")" "$(listed)"
    settle "${pids[daemon]}"
    before=$(snapshot)
    sleep 10
    held=$(snapshot)
    row "$server" "$STREAMS streams playing, 10 s more (CPU in those 10 s)" "$held" "$(ms_between "$before" "$held")" "-"

    stop_tag streams1
    stop_tag streams2
    wait_stream_count 0
    settle "${pids[daemon]}"
    gone=$(snapshot)
    row "$server" "$STREAMS streams gone, settled (CPU absorbing their end)" "$gone" "$(ms_between "$held" "$gone")" "$(listed)"
    stop_tag daemon
    stop_server
    stop_tag bus
done

echo "### Inventory: $STREAMS streams ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- Servers: $(IFS=';'; echo "${versions[*]}")"
echo "- Streams: two bench-pulse-streams, $STREAMS silent playback streams over $(( (STREAMS + PER_CLIENT - 1) / PER_CLIENT )) libpulse clients (both servers take at most 64 clients), half on null-sink, half on a second null sink (PipeWire 0.3.65 takes at most 128 streams on one sink)"
echo "- CPU: the daemon's utime+stime (clock ticks of ${tick_ms} ms) | its threads' run time from schedstat; each figure after the daemon's CPU time stayed unchanged for 2 s"
echo
echo "| server | state | CPU ms (utime+stime) | CPU ms (schedstat) | VmRSS kB | VmHWM kB | streams in status |"
echo "|---|---|---:|---:|---:|---:|---:|"
cat "$work/rows"
