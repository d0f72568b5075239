#!/usr/bin/env bash
# wakeups-all.sh — wake-ups (context switches, every thread) of the policy daemon, of `mprisd play`
# and of mpv + mpv-mpris, idle, paused and playing (issue 7). Target: zero idle and paused.
#
#   Benchmarks/wakeups-all.sh > result.md         # SECONDS=30 per window (SECONDS=5 to try it)
#
# One private dbus-daemon; the policy daemon `mprisd` runs throughout (XDG dirs and the system bus
# pointed into a scratch directory / nowhere). Each window counts with Benchmarks/wakeups.sh, after
# a settling second, every process of the window at once:
#   1. daemon idle: the daemon alone
#   2. mprisd play playing (--device null, the silent output paced in real time; registered with
#      the daemon): the player and the daemon
#   3. the same player paused (PlayPause over MPRIS): the player and the daemon
#   4. mpv + mpv-mpris idle (--idle=yes, no file): mpv and the daemon (which watches it as a player)
#   5. mpv paused (a file loaded, --pause): mpv and the daemon
#   6. mpv playing (--ao=null): mpv and the daemon, for comparison with window 2
# `mprisd play` has no idle state of its own: it exits when stopped or at the end of its queue.
# Markdown on stdout (one line per process and window, then the per-thread detail), progress on stderr.
#
# Environment: SECONDS (window length, default 30; read before anything else), SCRATCH, MPV_MPRIS.
window=$SECONDS
(( window >= 1 )) || window=30
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
MPV_MPRIS=${MPV_MPRIS:-/usr/lib/mpv-mpris/mpris.so}

build mprisd
start_bus
make_tone "$work/tone.wav" 10
MPRIS=/org/mpris/MediaPlayer2

spawn daemon "$bin/mprisd"
wait_name org.mprisd.AudioPolicy

: > "$work/summary"
: > "$work/detail"
measure() { # measure WINDOW TAG...: one window, every TAG's process at once
    local label=$1 tag out=() i=0
    shift
    sleep 1
    for tag in "$@"; do
        "$here/wakeups.sh" "${pids[$tag]}" "$window" > "$work/w.$tag" &
        out+=($!)
    done
    for tag in "$@"; do
        wait "${out[$i]}" || die "wakeups.sh failed for $tag"
        i=$(( i + 1 ))
        read -r _ _ total per_second < <(head -n 1 "$work/w.$tag")
        echo "| $label | $tag | ${total#wakeups=} | ${per_second#per_second=} |" >> "$work/summary"
        { echo "$label — $tag: $(head -n 1 "$work/w.$tag")"; tail -n +2 "$work/w.$tag" | sed 's/^/  /'; } >> "$work/detail"
        log "$label $tag: $(head -n 1 "$work/w.$tag")"
    done
}
status_of() { # status_of BUSNAME
    dbus-send --session --print-reply=literal --dest="$1" $MPRIS org.freedesktop.DBus.Properties.Get \
        string:org.mpris.MediaPlayer2.Player string:PlaybackStatus | awk '{ print $NF }'
}
expect_status() { # expect_status BUSNAME STATUS
    local status=''
    for _ in $(seq 100); do
        status=$(status_of "$1")
        [[ $status == "$2" ]] && return 0
        sleep 0.05
    done
    die "$1 is '$status', expected $2"
}

measure "1 idle" daemon

spawn play "$bin/mprisd" play --device null --loop track --name bench "$work/tone.wav"
wait_name org.mpris.MediaPlayer2.bench
expect_status org.mpris.MediaPlayer2.bench Playing
measure "2 playing" play daemon
dbus-send --session --print-reply --dest=org.mpris.MediaPlayer2.bench $MPRIS org.mpris.MediaPlayer2.Player.Pause > /dev/null
expect_status org.mpris.MediaPlayer2.bench Paused
measure "3 paused" play daemon
stop_tag play
wait_gone org.mpris.MediaPlayer2.bench

if [[ -f $MPV_MPRIS ]] && command -v mpv > /dev/null; then
    mpv_args=(--no-config --ao=null --vo=null --no-terminal --script="$MPV_MPRIS")
    spawn mpv mpv "${mpv_args[@]}" --idle=yes
    wait_name org.mpris.MediaPlayer2.mpv
    measure "4 mpv idle" mpv daemon
    stop_tag mpv
    wait_gone org.mpris.MediaPlayer2.mpv
    spawn mpv mpv "${mpv_args[@]}" --idle=yes --pause --loop-file=inf "$work/tone.wav"
    wait_name org.mpris.MediaPlayer2.mpv
    expect_status org.mpris.MediaPlayer2.mpv Paused
    measure "5 mpv paused" mpv daemon
    dbus-send --session --print-reply --dest=org.mpris.MediaPlayer2.mpv $MPRIS org.mpris.MediaPlayer2.Player.Play > /dev/null
    expect_status org.mpris.MediaPlayer2.mpv Playing
    measure "6 mpv playing" mpv daemon
else
    log "mpv or $MPV_MPRIS missing: windows 4-6 left out"
fi
kill -0 "${pids[daemon]}" 2>/dev/null || die "the daemon died: $(tail -n 5 "$work/daemon.err")"

echo "### Wake-ups ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- $(mpv_version); private dbus-daemon; ${window} s per window; \`Benchmarks/wakeups.sh\` (voluntary + involuntary context switches of every thread)"
echo
echo "| Window | Process | wake-ups | per second |"
echo "|---|---|---:|---:|"
cat "$work/summary"
echo
echo "<details><summary>Per thread</summary>"
echo
echo '```'
cat "$work/detail"
echo '```'
echo
echo "</details>"
