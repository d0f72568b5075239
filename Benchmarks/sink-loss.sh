#!/usr/bin/env bash
# sink-loss.sh — a sink going away under a playing player → the daemon's Pause to that player
# (issue 23: device loss decided per stream), on each server: median and p99 over ROUNDS rounds,
# and how many Pauses it sent (exactly one a round). Target: p99 ≤ 5 ms, as for the jack
# (Benchmarks/unplug.sh).
#
#   Benchmarks/sink-loss.sh > result.md      # SERVERS="pulseaudio pipewire" ROUNDS=100; BIN=<dir>
#
# Per server: a private bus, a fresh server (audio-servers.sh), the daemon (release build), and
# Benchmarks/sink-loss.py for the rounds: each an mpv (mpv-mpris) on a sink `usb-dac` loaded for
# it, then unloaded (the timing is described there). Markdown on stdout, progress on stderr.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/audio-servers.sh"
SERVERS=${SERVERS:-"pulseaudio pipewire"}
ROUNDS=${ROUNDS:-100}
if [[ -n ${BIN:-} ]]; then bin=$BIN; else build mprisd bench-pulse-watch; fi
make_tone "$work/tone.wav" 30
echo "### Sink gone → the daemon's Pause ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- \`ROUNDS=$ROUNDS Benchmarks/sink-loss.sh\`: from the server's sink \`remove\` event (bench-pulse-watch) to the"
echo "  daemon's \`Pause\` call on the bus (dbus-monitor), both CLOCK_MONOTONIC on arrival"
echo
echo '| server | n | median ms | p99 ms | max ms | Pauses sent | missed |'
echo '|---|---:|---:|---:|---:|---:|---:|'
for server in $SERVERS; do
    start_bus
    start_server "$server"
    spawn daemon "$bin/mprisd"
    wait_name org.mprisd.AudioPolicy
    for (( i = 0; i < 200; i++ )); do
        grep -q "connected to the audio server" "$work/daemon.err" && break
        sleep 0.05
    done
    version=$(server_version)
    /usr/bin/python3 "$here/sink-loss.py" --watch "$bin/bench-pulse-watch" --mprisd "$bin/mprisd" \
        --tone "$work/tone.wav" --rounds "$ROUNDS" > "$work/rounds-$server" ||
        die "rounds failed on $server: $(tail -n 3 "$work/rounds-$server"); daemon: $(tail -n 5 "$work/daemon.err")"
    summary=$(grep '^summary' "$work/rounds-$server")
    field() { sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p" <<< "$summary"; }
    echo "| $version | $(field n) | $(field median) | $(field p99) | $(field max) | $(field pauses) | $(field missed) |"
    stop_tag daemon
    stop_server
done
