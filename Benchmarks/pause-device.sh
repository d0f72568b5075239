#!/usr/bin/env bash
# pause-device.sh — MPRIS Pause → the device stopped (issue 18): `mprisd play --device pulse` to a
# private real-time PulseAudio null sink; the device is stopped when the server corks the player's
# stream, seen by bench-pulse-watch (Benchmarks/pause-device.py has the details; it needs Debian's
# /usr/bin/python3 for python3-dbus).
#
#   Benchmarks/pause-device.sh > result.md      # COUNT=100; BIN=<dir> skips the release build
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$here/audio-servers.sh"
COUNT=${COUNT:-100}
if [[ -n ${BIN:-} ]]; then bin=$BIN; else build mprisd bench-pulse-watch; fi
start_bus
start_server pulseaudio
cc -O2 -o "$work/make-flac" "$here/Fixtures/make-flac.c" -lsndfile -lm
"$work/make-flac" "$work/music.flac" 60
spawn player "$bin/mprisd" play --device pulse --name bench --loop track "$work/music.flac"
wait_name org.mpris.MediaPlayer2.bench
/usr/bin/python3 "$here/pause-device.py" --watch "$bin/bench-pulse-watch" --name bench --rounds "$COUNT" > "$work/rounds" ||
    die "rounds failed: $(tail -n 3 "$work/rounds"); player: $(tail -n 5 "$work/player.err")"
echo "### MPRIS Pause → device stopped ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- $(pulseaudio --version 2>/dev/null | awk 'NR == 1'), null sink; \`mprisd play --device pulse\` ($(stream_buffer_ms) ms queued on the server at the end)"
echo "- From the Pause call leaving the client to the server's event showing the stream corked; $COUNT rounds at random points; Position read while paused against the time played between the server's uncork and cork events"
echo
echo '```'
grep -v '^sample' "$work/rounds"
[[ -n ${SAMPLES:-} ]] && cp "$work/rounds" "$SAMPLES"
echo '```'
