#!/usr/bin/env bash
# journal.sh — what a dead daemon costs the user (issue 12): how long mpv stays ducked after the
# daemon that ducked it is killed (SIGKILL, no restart: the journal guard sets the volume back),
# how long the music stays paused after the call that paused it ends when the daemon died
# mid-call, and what the guard costs while it waits.
#
#   Benchmarks/journal.sh > result.md      # ROUNDS=10
#
# One private bus and one mpv + mpv-mpris (--ao=null, a looping tone, Volume 0.8). Each round: a
# fresh daemon (`mprisd`); a ducker (`mprisd run --mix --duck -- sleep 60`) ducks mpv to 0.24; the
# daemon is killed (SIGKILL) and the time until mpv answers Volume 0.8 again is taken; then a fresh
# daemon, a call (`mprisd run --category playAndRecord --mode voiceChat -- sleep 60`) pauses mpv,
# the daemon is killed, the call is killed, and the time until mpv answers Playing is taken. Times
# are seen from outside (a `dbus-send` poll every few ms, so a few ms of resolution). The guard's
# memory (smaps_rollup: resident, proportional, private) and context switches are read while the
# daemon serves. Markdown on stdout.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ROUNDS=${ROUNDS:-10}
MPV_MPRIS=${MPV_MPRIS:-/usr/lib/mpv-mpris/mpris.so}

build mprisd
start_bus
make_tone "$work/tone.wav" 5
spawn mpv mpv --no-config --idle=yes --ao=null --vo=null --no-terminal "--script=$MPV_MPRIS" --loop-file=inf "$work/tone.wav"
wait_name org.mpris.MediaPlayer2.mpv

mpv_get() { # mpv_get PROPERTY: the value as dbus-send prints it
    dbus-send --session --print-reply=literal --dest=org.mpris.MediaPlayer2.mpv /org/mpris/MediaPlayer2 \
        org.freedesktop.DBus.Properties.Get string:org.mpris.MediaPlayer2.Player "string:$1" 2>/dev/null |
        awk '{ print $NF }'
}
now_ns() { date +%s%N; }
wait_until() { # wait_until WHAT COMMAND...: polls COMMAND until it succeeds (10 s at most)
    local what=$1 i
    shift
    for (( i = 0; i < 2000; i++ )); do
        "$@" && return 0
        sleep 0.005
    done
    die "timed out waiting until $what"
}
volume_is() { awk -v v="$(mpv_get Volume)" -v w="$1" 'BEGIN { exit !(v != "" && (v - w < 0.002 && w - v < 0.002)) }'; }
status_is() { [[ $(mpv_get PlaybackStatus) == "$1" ]]; }
start_daemon() {
    spawn daemon "$bin/mprisd"
    wait_name org.mprisd.AudioPolicy
    # The daemon follows mpv once it has read it: wait for its status to list mpv.
    wait_until "the daemon tracks mpv" bash -c "'$bin/mprisd' status --json | grep -q org.mpris.MediaPlayer2.mpv"
}
guard_pid() { pgrep -P "${pids[daemon]}" -f -- '--journal-guard' | head -n 1; }

dbus-send --session --print-reply --dest=org.mpris.MediaPlayer2.mpv /org/mpris/MediaPlayer2 \
    org.freedesktop.DBus.Properties.Set string:org.mpris.MediaPlayer2.Player string:Volume variant:double:0.8 > /dev/null
wait_until "mpv at 0.8" volume_is 0.8

restore=()
resume=()
guard_rss=""
guard_switches=""
for (( round = 1; round <= ROUNDS; round++ )); do
    log "round $round of $ROUNDS"
    start_daemon
    if [[ -z $guard_rss ]]; then
        guard=$(guard_pid)
        [[ -n $guard ]] || die "no journal guard under the daemon"
        before=$(awk '/ctxt_switches/ { s += $2 } END { print s }' "/proc/$guard/status")
        sleep 5
        after=$(awk '/ctxt_switches/ { s += $2 } END { print s }' "/proc/$guard/status")
        guard_rss=$(awk '$1 == "Rss:" { r = $2 } $1 == "Pss:" { p = $2 } $1 == "Private_Dirty:" { d = $2 } $1 == "Private_Clean:" { c = $2 }
                         END { printf "Rss %d kB, Pss %d kB, private %d kB", r, p, d + c }' "/proc/$guard/smaps_rollup")
        log "guard: $(tr '\0' ' ' < "/proc/$guard/cmdline")"
        guard_switches=$(( after - before ))
    fi
    spawn ducker "$bin/mprisd" run --category playback --mix --duck --name ducker -- sleep 60
    wait_until "mpv ducked" volume_is 0.24
    start=$(now_ns)
    kill -KILL "${pids[daemon]}"
    wait_until "mpv's volume restored" volume_is 0.8
    restore+=($(( ($(now_ns) - start) / 1000000 )))
    unset "pids[daemon]"
    stop_tag ducker
    wait_gone org.mprisd.AudioPolicy

    start_daemon
    spawn caller "$bin/mprisd" run --category playAndRecord --mode voiceChat --name call -- sleep 60
    wait_until "mpv paused by the call" status_is Paused
    kill -KILL "${pids[daemon]}"
    unset "pids[daemon]"
    wait_gone org.mprisd.AudioPolicy
    sleep 0.3
    status_is Paused || die "mpv resumed while the call went on"
    start=$(now_ns)
    kill -KILL "${pids[caller]}"
    unset "pids[caller]"
    wait_until "mpv resumed" status_is Playing
    resume+=($(( ($(now_ns) - start) / 1000000 )))
done

stats() { # stats N...: median and worst
    printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%d | %d", v[int((NR + 1) / 2)], v[NR] }'
}
echo "Machine: $(machine_line)"
echo
echo "| what (SIGKILL of the daemon, no restart; $ROUNDS rounds) | median ms | worst ms |"
echo "|---|---:|---:|"
echo "| ducked mpv back at the user's volume after the kill | $(stats "${restore[@]}") |"
echo "| paused mpv playing again after the call ended | $(stats "${resume[@]}") |"
echo
echo "Journal guard while the daemon serves: $guard_rss; $guard_switches context switches in 5 s."
