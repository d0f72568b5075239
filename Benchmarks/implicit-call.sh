#!/usr/bin/env bash
# implicit-call.sh — calls from apps that know nothing of mprisd (issue 15): from a call app's
# capture stream appearing on the server to the music muted and mpv paused, on each server.
# Target: p99 < 50 ms (mpv's own reaction time counted separately).
#
#   Benchmarks/implicit-call.sh > result.md   # SERVERS="pulseaudio pipewire" ROUNDS=100 HEURISTIC_ROUNDS=5 SAME_MUSIC_ROUNDS=5
#                                             # SAME_KEY_ROUNDS=6
#                                             # KEEP_LOGS=DIR: the daemon's log and the rounds kept there
#
# Per server: a private bus, a fresh server with a null source as the microphone, a fresh daemon
# (`mprisd`, release build), mpv (--ao=null, mpv-mpris) playing, and music without MPRIS
# (`paplay --client-name=jukebox`, no role). Benchmarks/implicit-rounds.py runs the rounds: one
# `bench-implicit-trigger` process opens and closes the call app's capture stream (a libpulse
# client named "ZOOM VoiceEngine": the name table; or "softphone" with media.role=phone), and one
# `bench-implicit-watch` (libpulse) timestamps its appearance on the server and the music's
# change to muted (CLOCK_MONOTONIC); `dbus-monitor` timestamps the daemon's Pause call to mpv and
# mpv's PropertiesChanged PlaybackStatus=Paused. After each round the capture closes and the
# script waits for the music unmuted and mpv Playing (the call's end notifies the others).
# Each round starts a new music stream first (--fresh-music) and waits for its implicit session
# to be active: on this build a music stream is muted by its first call only (BENCHMARKS.md);
# SAME_MUSIC_ROUNDS rounds (default 5) with one music stream throughout show that, and
# SAME_KEY_ROUNDS rounds (default 6) of a new music stream per round all named alike (one
# restore key) show why each new one has a name of its own (on PipeWire: BENCHMARKS.md).
# The browser heuristic: "Chromium" playback, then "Chromium input" capture of the same process;
# timed from the capture's appearance + 3 s (the minimum time) to the mute and the pause.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/audio-servers.sh"
source "$(dirname "${BASH_SOURCE[0]}")/implicit-setup.sh"
SERVERS=${SERVERS:-"pulseaudio pipewire"}
ROUNDS=${ROUNDS:-100}
HEURISTIC_ROUNDS=${HEURISTIC_ROUNDS:-5}
SAME_MUSIC_ROUNDS=${SAME_MUSIC_ROUNDS:-5}
SAME_KEY_ROUNDS=${SAME_KEY_ROUNDS:-6}
command -v mpv > /dev/null && [[ -f $MPV_MPRIS ]] || die "mpv and mpv-mpris are needed"

build mprisd bench-implicit-watch bench-implicit-trigger
make_quiet_tone "$work/tone.wav"
versions=()
for server in $SERVERS; do
    setup_server "$server"
    versions+=("$server_line")
    start_mpv
    rounds name call --mpv --fresh-music --rounds "$ROUNDS" --app "ZOOM VoiceEngine"
    rounds role call --mpv --fresh-music --rounds "$ROUNDS" --app softphone --role phone
    (( HEURISTIC_ROUNDS > 0 )) && rounds heuristic heuristic --mpv --fresh-music --rounds "$HEURISTIC_ROUNDS"
    (( SAME_MUSIC_ROUNDS > 0 )) && rounds same call --mpv --rounds "$SAME_MUSIC_ROUNDS" --app "ZOOM VoiceEngine"
    (( SAME_KEY_ROUNDS > 0 )) && rounds samekey call --fresh-music --music-name "jukebox-$server" --rounds "$SAME_KEY_ROUNDS" --app "ZOOM VoiceEngine"
    for what in "name:ZOOM VoiceEngine (name table)" "role:softphone, media.role=phone"; do
        name=${what%%:*} label=${what#*:}
        row "$server_line" "$label: capture → music muted" "$(summary_of "$name" capture-to-muted)"
        row "$server_line" "$label: capture → daemon's Pause call to mpv" "$(summary_of "$name" capture-to-pause-call)"
        row "$server_line" "$label: capture → mpv announces Paused" "$(summary_of "$name" capture-to-mpv-paused)"
        row "$server_line" "$label: mpv's own reaction (Pause call → Paused announced)" "$(summary_of "$name" mpv-reaction)"
    done
    if (( HEURISTIC_ROUNDS > 0 )); then
        row "$server_line" "Chromium input + playback: (capture + 3 s) → music muted" "$(summary_of heuristic held-to-muted)"
        row "$server_line" "Chromium input + playback: (capture + 3 s) → daemon's Pause call to mpv" "$(summary_of heuristic held-to-pause-call)"
        row "$server_line" "Chromium input + playback: (capture + 3 s) → mpv announces Paused" "$(summary_of heuristic held-to-mpv-paused)"
    fi
    if (( SAME_MUSIC_ROUNDS > 0 )); then
        row "$server_line" "ZOOM VoiceEngine, one music stream for all rounds: capture → music muted" "$(summary_of same capture-to-muted)"
    fi
    if (( SAME_KEY_ROUNDS > 0 )); then
        row "$server_line" "ZOOM VoiceEngine, a new music stream per round, one restore key: capture → music muted" "$(summary_of samekey capture-to-muted)"
    fi
    teardown_server
done

echo "### Call app's capture → music muted, mpv paused ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- Servers: $(IFS=';'; echo "${versions[*]}"); $(mpv_version) with mpv-mpris"
echo "- $ROUNDS rounds per call kind, $HEURISTIC_ROUNDS of the browser heuristic; times in ms; p90/p99 by nearest rank; missed: no effect within 10 s or pactl disagreed"
echo
echo "| server | what | n | median ms | p90 ms | p99 ms | max ms | missed |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
cat "$work/rows"
echo
cat "$work/notes" "$work/sched"
