#!/usr/bin/env bash
# cpu-play.sh — CPU time of `mprisd play` against mpv playing the same 44.1 kHz stereo FLAC to the
# same user-space PulseAudio null sink through the ALSA device `pulse` (issue 7); ratio.
#
#   Benchmarks/cpu-play.sh > result.md       # PLAY_SECONDS=30 ROUNDS=2
#
# Makes a FLAC that compresses like music (Benchmarks/Fixtures/make-flac.c, libsndfile), starts a
# private PulseAudio the way Tests/TestSupport/PulseServer.swift does (audio-servers.sh with
# SERVER_LOOPBACK=1: `pulseaudio -n -F conf --daemonize=no`, module-null-sink paced by the server's
# clock, a null-source loopback keeping its latency low, no D-Bus) and a private dbus-daemon (both
# players are MPRIS players: mpv gets mpv-mpris), then in each round plays the file with each
# player in turn (the order alternating between rounds) for PLAY_SECONDS:
#   mprisd play --device pulse FILE
#   mpv --no-config --ao=alsa --audio-device=alsa/pulse --vo=null --script=mpris.so FILE
# CPU is utime+stime of the player's whole process from /proc/PID/stat, read at PLAY_SECONDS
# (total, start-up included) and from second 3 on (steady state); the PulseAudio server's CPU in the
# same window is shown too (a client's period size moves work into the server). Markdown on stdout.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$here/audio-servers.sh"
PLAY_SECONDS=${PLAY_SECONDS:-30}
ROUNDS=${ROUNDS:-2}
MPV_MPRIS=${MPV_MPRIS:-/usr/lib/mpv-mpris/mpris.so}
(( PLAY_SECONDS >= 5 )) || die "PLAY_SECONDS must be at least 5"
command -v mpv > /dev/null || die "mpv is needed"
[[ -f /usr/share/alsa/alsa.conf.d/pulse.conf ]] || die "the ALSA pulse plugin (libasound2-plugins) is needed"

build mprisd
start_bus
cc -O2 -o "$work/make-flac" "$here/Fixtures/make-flac.c" -lsndfile -lm
"$work/make-flac" "$work/music.flac" $(( PLAY_SECONDS + 5 ))

# PulseAudio (as in Tests/TestSupport/PulseServer.swift), with the null source's loopback.
SERVER_LOOPBACK=1 start_server pulseaudio
server=$(server_pid pulseaudio)

tick=$(getconf CLK_TCK)
seconds_of() { awk -v t="$1" -v hz="$tick" 'BEGIN { printf "%.2f", t / hz }'; }
: > "$work/results"
run_player() { # run_player TAG ROUND
    local tag=$1 round=$2 p0 p3 pend s0 s3 send
    case $tag in
        mprisd) spawn "$tag" "$bin/mprisd" play --device pulse --name bench "$work/music.flac" ;;
        mpv) spawn "$tag" mpv --no-config --ao=alsa --audio-device=alsa/pulse --vo=null --no-terminal \
                 --script="$MPV_MPRIS" "$work/music.flac" ;;
    esac
    s0=$(cpu_ticks "$server")
    sleep 3
    p3=$(cpu_ticks "${pids[$tag]}") || die "$tag exited early: $(tail -n 5 "$work/$tag.err")"
    # It must really be playing to the server: a stream besides the null-source loopback.
    if command -v pactl > /dev/null; then
        (( $(pactl list short sink-inputs 2>/dev/null | wc -l) >= 2 )) ||
            die "$tag has no stream on the PulseAudio server: $(tail -n 5 "$work/$tag.err")"
    fi
    s3=$(cpu_ticks "$server")
    sleep $(( PLAY_SECONDS - 3 ))
    pend=$(cpu_ticks "${pids[$tag]}") || die "$tag exited early: $(tail -n 5 "$work/$tag.err")"
    send=$(cpu_ticks "$server")
    stop_tag "$tag"
    echo "$round $tag $pend $(( pend - p3 )) $(( send - s0 )) $(( send - s3 ))" >> "$work/results"
    log "round $round $tag: total $(seconds_of "$pend") s, from second 3 $(seconds_of $(( pend - p3 ))) s, pulseaudio $(seconds_of $(( send - s0 ))) s"
    sleep 1
}
busy_before=$(busy_percent 2)
for (( round = 1; round <= ROUNDS; round++ )); do
    if (( round % 2 )); then run_player mprisd "$round"; run_player mpv "$round"
    else run_player mpv "$round"; run_player mprisd "$round"; fi
done
# Both must have played: the sink saw their streams (a player that failed to open `pulse` would
# read ~0 CPU and win).
grep -qi "error\|fail" "$work/mprisd.err" && log "mprisd play stderr: $(cat "$work/mprisd.err")"

sum() { awk -v t="$1" -v c="$2" '$2 == t { s += $c } END { print s + 0 }' "$work/results"; }
echo "### CPU while playing FLAC to PulseAudio ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line); background CPU load before: ${busy_before}%"
echo "- $(pulseaudio --version 2>/dev/null | awk "NR == 1"), null sink at 44.1 kHz through ALSA \`pulse\`; $(mpv_version)"
echo "- File: ${PLAY_SECONDS}+5 s of 44.1 kHz 16-bit stereo FLAC ($(( $(stat -c %s "$work/music.flac") / 1024 )) KiB, made by Benchmarks/Fixtures/make-flac.c); $ROUNDS rounds, ${PLAY_SECONDS} s per player and round"
echo "- CPU = utime+stime of the whole process (/proc/PID/stat, ${tick} Hz ticks), summed over the rounds"
echo
echo "| player | CPU s total | CPU s from second 3 | % of one CPU (steady) | PulseAudio CPU s in the same window | player + PulseAudio |"
echo "|---|---:|---:|---:|---:|---:|"
for t in mprisd mpv; do
    total=$(sum "$t" 3); steady=$(sum "$t" 4); server=$(sum "$t" 5)
    pct=$(awk -v s="$steady" -v hz="$tick" -v n="$ROUNDS" -v w=$(( PLAY_SECONDS - 3 )) 'BEGIN { printf "%.2f", 100 * s / hz / (n * w) }')
    echo "| $t | $(seconds_of "$total") | $(seconds_of "$steady") | ${pct}% | $(seconds_of "$server") | $(seconds_of $(( total + server ))) |"
done
ratio_total=$(awk -v a="$(sum mprisd 3)" -v b="$(sum mpv 3)" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
ratio_steady=$(awk -v a="$(sum mprisd 4)" -v b="$(sum mpv 4)" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
echo
ratio_system=$(awk -v a="$(( $(sum mprisd 3) + $(sum mprisd 5) ))" -v b="$(( $(sum mpv 3) + $(sum mpv 5) ))" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
echo "Ratio mprisd play / mpv: ${ratio_total}× total, ${ratio_steady}× steady state; ${ratio_system}× counting the PulseAudio server's work for each."
echo
echo '```'
echo "round player total_ticks steady_ticks pulse_ticks pulse_steady_ticks"
cat "$work/results"
echo '```'
