#!/usr/bin/env bash
# implicit-prompt.sh — prompts from apps that know nothing of mprisd (issue 15): from a playback
# stream with media.role=navigation appearing on the server to the music's volume lowered (the
# duck: 30 % of the user's volume), on each server. Target: p99 < 30 ms.
#
#   Benchmarks/implicit-prompt.sh > result.md   # SERVERS="pulseaudio pipewire" ROUNDS=100
#                                               # KEEP_LOGS=DIR: the daemon's log and the rounds kept there
#
# Per server: a private bus, a fresh server, a fresh daemon (`mprisd`, release build) and music
# without MPRIS (`paplay --client-name=jukebox`, no role). Benchmarks/implicit-rounds.py runs the
# rounds: `bench-implicit-trigger` opens and closes a silent playback stream of an app "maps" with
# media.role=navigation; `bench-implicit-watch` (libpulse) timestamps its `new` event and the
# music's `change` event that shows the ducked volume (CLOCK_MONOTONIC), and, when the prompt
# closes, its `remove` event and the music's change back to the user's volume.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/audio-servers.sh"
source "$(dirname "${BASH_SOURCE[0]}")/implicit-setup.sh"
SERVERS=${SERVERS:-"pulseaudio pipewire"}
ROUNDS=${ROUNDS:-100}

build mprisd bench-implicit-watch bench-implicit-trigger
make_quiet_tone "$work/tone.wav"
versions=()
for server in $SERVERS; do
    setup_server "$server"
    versions+=("$server_line")
    rounds prompt prompt --rounds "$ROUNDS"
    row "$server_line" "navigation prompt appears → music ducked" "$(summary_of prompt prompt-to-ducked)"
    row "$server_line" "prompt's stream gone → music's volume back" "$(summary_of prompt prompt-end-to-restored)"
    teardown_server
done

echo "### Navigation prompt → music ducked ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- Servers: $(IFS=';'; echo "${versions[*]}")"
echo "- $ROUNDS rounds each; times in ms; p90/p99 by nearest rank; missed: no ducked volume within 10 s or pactl disagreed"
echo
echo "| server | what | n | median ms | p90 ms | p99 ms | max ms | missed |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
cat "$work/rows"
echo
cat "$work/notes" "$work/sched"
