#!/usr/bin/env bash
# play-power.sh — wake-ups per second of `mprisd play` while playing (issue 18), against mpv on the
# same file and device, side by side in one run:
#   silent:  mprisd play --device null          vs  mpv --ao=null
#   pulse:   mprisd play --device pulse         vs  mpv --ao=alsa --audio-device=alsa/pulse
# (`pulse`: ALSA's pulse plugin to a private real-time PulseAudio null sink, Benchmarks/audio-servers.sh)
#
#   Benchmarks/play-power.sh > result.md      # SECONDS_PER_RUN=30 ROUNDS=1; BIN=<dir> skips the
#                                             # release build (a debug build's wake-ups are the same);
#                                             # BEFORE=<dir>: also an earlier mprisd build, same rows
#
# Wake-ups are context switches (voluntary + nonvoluntary) of every thread of the player's process
# over SECONDS_PER_RUN, read from /proc/PID/task/*/status by Benchmarks/wakeups.sh, after 3 s of
# warm-up (the first fill). For the pulse rows, what the server holds of the stream at that moment
# ("Buffer Latency", pactl) is shown. Markdown on stdout.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$here/audio-servers.sh"
SECONDS_PER_RUN=${SECONDS_PER_RUN:-30}
ROUNDS=${ROUNDS:-1}
MPV_MPRIS=${MPV_MPRIS:-/usr/lib/mpv-mpris/mpris.so}
command -v mpv > /dev/null || die "mpv is needed"

if [[ -n ${BIN:-} ]]; then bin=$BIN; else build mprisd; fi
start_bus
start_server pulseaudio
cc -O2 -o "$work/make-flac" "$here/Fixtures/make-flac.c" -lsndfile -lm
"$work/make-flac" "$work/music.flac" $(( SECONDS_PER_RUN + 10 ))
cc -O2 -o "$work/alsa-grant" "$here/Fixtures/alsa-grant.c" -lasound
# What the `pulse` device grants to the player's request (ALSAOutput.pluginBufferMicroseconds, thirds).
BUFFER_US=${BUFFER_US:-$(sed -n 's/.*static let pluginBufferMicroseconds = \([0-9_]*\).*/\1/p' \
    "$here/../Sources/AudioDevices/Output/ALSAOutput.swift" | tr -d _)}
pulse_grant=$("$work/alsa-grant" pulse "$BUFFER_US") || die "the pulse device refused the player's request"

: > "$work/results"
run() { # run TAG ROUND
    local tag=$1 round=$2 buffer=-
    case $tag in
        mprisd-silent) spawn "$tag" "$bin/mprisd" play --device null --name bench "$work/music.flac" ;;
        mpv-null) spawn "$tag" mpv --no-config --ao=null --vo=null --no-terminal --script="$MPV_MPRIS" "$work/music.flac" ;;
        mprisd-pulse) spawn "$tag" "$bin/mprisd" play --device pulse --name bench "$work/music.flac" ;;
        before-silent) spawn "$tag" "$BEFORE/mprisd" play --device null --name bench "$work/music.flac" ;;
        before-pulse) spawn "$tag" "$BEFORE/mprisd" play --device pulse --name bench "$work/music.flac" ;;
        mpv-pulse) spawn "$tag" mpv --no-config --ao=alsa --audio-device=alsa/pulse --vo=null --no-terminal \
                       --script="$MPV_MPRIS" "$work/music.flac" ;;
    esac
    sleep 3
    kill -0 "${pids[$tag]}" 2>/dev/null || die "$tag exited early: $(tail -n 5 "$work/$tag.err")"
    if [[ $tag == *-pulse ]]; then
        buffer=$(stream_buffer_ms)
        [[ $buffer != "?" ]] || die "$tag has no stream on the PulseAudio server: $(tail -n 5 "$work/$tag.err")"
    fi
    "$here/wakeups.sh" "${pids[$tag]}" "$SECONDS_PER_RUN" > "$work/$tag.$round.wakeups" ||
        die "$tag: $(cat "$work/$tag.$round.wakeups")"
    stop_tag "$tag"
    local per_second
    per_second=$(sed -n 's/.* per_second=\([0-9.]*\).*/\1/p' "$work/$tag.$round.wakeups" | head -n 1)
    echo "$round $tag $per_second $buffer" >> "$work/results"
    log "round $round $tag: $per_second wake-ups/s (stream buffer ${buffer} ms)"
    sleep 1
}
busy_before=$(busy_percent 2)
tags=(${TAGS:-mprisd-silent mpv-null mprisd-pulse mpv-pulse})
[[ -n ${BEFORE:-} && -z ${TAGS:-} ]] && tags=(mprisd-silent before-silent mpv-null mprisd-pulse before-pulse mpv-pulse)
for (( round = 1; round <= ROUNDS; round++ )); do
    for tag in "${tags[@]}"; do run "$tag" "$round"; done
done

echo "### Wake-ups while playing ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line); background CPU load before: ${busy_before}%"
echo "- $(pulseaudio --version 2>/dev/null | awk 'NR == 1'), null sink at 44.1 kHz through ALSA \`pulse\`; $(mpv_version)"
echo "- ALSA \`pulse\` asked for $(( BUFFER_US / 1000 )) ms in thirds, granted: $pulse_grant; the silent output models 2000 ms"
echo "- File: 44.1 kHz 16-bit stereo FLAC (Benchmarks/Fixtures/make-flac.c); ${SECONDS_PER_RUN} s windows after 3 s of warm-up; $ROUNDS round(s)"
echo
echo "| player | device | wake-ups/s (all threads) | queued on the server at 3 s |"
echo "|---|---|---:|---:|"
while read -r round tag per buffer; do
    device=${tag#*-}
    player=${tag%%-*}
    [[ $player == before ]] && player="mprisd (BEFORE)"
    echo "| $player | $device | $per | $( [[ $buffer == - ]] && echo "—" || echo "$buffer ms") |"
done < "$work/results"
echo
echo "Per thread (last round):"
echo
echo '```'
for tag in "${tags[@]}"; do
    echo "$tag:"; cat "$work/$tag.$ROUNDS.wakeups"
done
echo '```'
