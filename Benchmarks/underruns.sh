#!/usr/bin/env bash
# underruns.sh — does `mprisd play` run dry when both CPUs are fully loaded? (issue 18)
#
#   Benchmarks/underruns.sh > result.md      # PLAY_SECONDS=600; BIN=<dir> skips the release build
#
# Loads every CPU with a busy loop (`yes > /dev/null`, one per CPU, same priority as the player),
# then plays a looping 60 s FLAC for PLAY_SECONDS with two players at once: one on the silent output
# (`--device null`) and one on ALSA `pulse` to a private real-time PulseAudio null sink
# (Benchmarks/audio-servers.sh). At the end each player is stopped (SIGTERM) and reports the
# underruns its sink counted ("the output ran dry N times", nothing when none). Meanwhile
# wake-jitter (Benchmarks/Fixtures/wake-jitter.c) measures for the first 60 s how late a sleeping
# thread wakes up under that load: the margin the players keep queued (WakeMargin) must cover it.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$here/audio-servers.sh"
PLAY_SECONDS=${PLAY_SECONDS:-600}

if [[ -n ${BIN:-} ]]; then bin=$BIN; else build mprisd; fi
start_bus
start_server pulseaudio
cc -O2 -o "$work/make-flac" "$here/Fixtures/make-flac.c" -lsndfile -lm
cc -O2 -o "$work/wake-jitter" "$here/Fixtures/wake-jitter.c"
"$work/make-flac" "$work/music.flac" 60

cpus=$(nproc)
for (( i = 0; i < cpus; i++ )); do spawn "busy$i" sh -c 'exec yes > /dev/null'; done
sleep 1
spawn silent "$bin/mprisd" play --device null --name silent --loop track "$work/music.flac"
spawn pulse-player "$bin/mprisd" play --device pulse --name pulse --loop track "$work/music.flac"
started=$(date -u '+%Y-%m-%d %H:%M UTC')
jitter=$("$work/wake-jitter" 60)
busy=$(busy_percent 5)
sleep $(( PLAY_SECONDS > 66 ? PLAY_SECONDS - 66 : 0 ))
for tag in silent pulse-player; do
    kill -0 "${pids[$tag]}" 2>/dev/null || die "$tag exited early: $(tail -n 5 "$work/$tag.err")"
done
stop_tag silent
stop_tag pulse-player
count() { # the underruns a player reported on stderr (0 when it reported none)
    local n
    n=$(sed -n 's/.*the output ran dry \([0-9]*\) time.*/\1/p' "$work/$1.err" | tail -n 1)
    echo "${n:-0}"
}

echo "### Underruns under full load ($started)"
echo
echo "- Machine: $(machine_line); $cpus busy loops (\`yes > /dev/null\`); all CPUs ${busy}% busy (5 s sample)"
echo "- $(pulseaudio --version 2>/dev/null | awk 'NR == 1'), null sink at 44.1 kHz through ALSA \`pulse\`"
echo "- ${PLAY_SECONDS} s of a looping 44.1 kHz stereo FLAC, both players at once"
echo "- Wake-up lateness of a sleeping thread under this load (60 s, Benchmarks/Fixtures/wake-jitter.c): $jitter"
echo
echo "| output | underruns in ${PLAY_SECONDS} s |"
echo "|---|---:|"
echo "| silent (\`--device null\`) | $(count silent) |"
echo "| ALSA \`pulse\` | $(count pulse-player) |"
