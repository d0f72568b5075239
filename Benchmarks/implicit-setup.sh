# implicit-setup.sh — sourced by the benchmarks of issue 15 (implicit-call.sh, implicit-prompt.sh)
# after common.sh and audio-servers.sh: per server a private bus, a fresh server with a
# microphone (SERVER_MIC=1), a fresh daemon (release build) and, if asked, mpv with mpv-mpris.
#
# Provides: setup_server KIND (bus, server, daemon; sets server_line), start_mpv, teardown_server,
# rounds NAME ARGS... (runs implicit-rounds.py, output in $work/NAME.txt, the daemon's CPU per
# round in $work/sched), row SERVER WHAT SUMMARY-LINE (a table row in $work/rows).
SERVER_MIC=1
MPV_MPRIS=${MPV_MPRIS:-/usr/lib/mpv-mpris/mpris.so}
: > "$work/rows"
: > "$work/sched"
: > "$work/notes"

sched() { # sched PID: "RUN-NS WAIT-NS" summed over its threads (/proc/PID/task/*/schedstat)
    cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ r += $1; w += $2 } END { printf "%.0f %.0f", r, w }'  # %d saturates at 2^31 in mawk
}

setup_server() { # setup_server pulseaudio|pipewire
    start_bus
    rm -rf "$XDG_STATE_HOME/mprisd" "$XDG_CONFIG_HOME/mprisd"  # no journal or rules of a previous run
    start_server "$1"
    server_line=$(server_version)
    spawn daemon "$bin/mprisd"
    wait_name org.mprisd.AudioPolicy
    local i
    for (( i = 0; i < 200; i++ )); do
        grep -q "connected to the audio server" "$work/daemon.err" && return 0
        sleep 0.05
    done
    die "the daemon did not connect: $(cat "$work/daemon.err")"
}

start_mpv() { # mpv playing a looping tone to no output, an MPRIS player the daemon tracks
    spawn mpv mpv --no-config --idle=yes --ao=null --vo=null --no-terminal "--script=$MPV_MPRIS" --loop-file=inf "$work/tone.wav"
    wait_name org.mpris.MediaPlayer2.mpv
    local i
    for (( i = 0; i < 200; i++ )); do
        timeout 10 "$bin/mprisd" status --json | grep -q org.mpris.MediaPlayer2.mpv && return 0
        sleep 0.1
    done
    die "the daemon does not track mpv: $(timeout 10 "$bin/mprisd" status --json)"
}

teardown_server() {
    stop_tag mpv
    stop_tag daemon
    [[ -n ${KEEP_LOGS:-} ]] && mkdir -p "$KEEP_LOGS" && cp "$work/daemon.err" "$KEEP_LOGS/$server-daemon.log" &&
        cp "$work/$server-"*.txt "$KEEP_LOGS/"
    stop_server
    stop_tag bus
}

rounds() { # rounds NAME ARGS...: implicit-rounds.py ARGS, its output in $work/$server-NAME.txt
    local name=$1 before after
    shift
    log "$server: $name"
    before=$(sched "${pids[daemon]}")
    timeout 900 python3 "$here/implicit-rounds.py" "$@" --bin "$bin" --tone "$work/tone.wav" > "$work/$server-$name.txt" ||
        die "$server $name failed: $(tail -n 5 "$work/$server-$name.txt"); daemon: $(tail -n 20 "$work/daemon.err")"
    after=$(sched "${pids[daemon]}")
    grep -E '^(summary|note)' "$work/$server-$name.txt" >&2
    grep -E '^note' "$work/$server-$name.txt" | sed "s/^note /- $server, $name: /" >> "$work/notes" || true
    awk -v a="$before" -v b="$after" -v n="$(grep -cE '^sample [a-z]+-to-(muted|ducked)' "$work/$server-$name.txt")" -v what="$server, $name" 'BEGIN {
        split(a, x, " "); split(b, y, " "); if (n == 0) n = 1
        printf "- %s: the daemon ran %.2f ms and waited %.2f ms for a CPU per round (schedstat, all threads, %d rounds)\n",
            what, (y[1] - x[1]) / 1e6 / n, (y[2] - x[2]) / 1e6 / n, n }' >> "$work/sched"
}

row() { # row SERVER WHAT SUMMARY-LINE
    local cells
    cells=$(awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
                 END { printf "%s | %s | %s | %s | %s | %s", v["n"], (v["median"] == "" ? "-" : v["median"]),
                       (v["p90"] == "" ? "-" : v["p90"]), (v["p99"] == "" ? "-" : v["p99"]), (v["max"] == "" ? "-" : v["max"]), v["missed"] }' <<< "${3#summary }")
    echo "| $1 | $2 | $cells |" >> "$work/rows"
}

summary_of() { grep "^summary $2 " "$work/$server-$1.txt" || echo "summary $2 n=0 missed=0"; }

make_quiet_tone() { # make_quiet_tone FILE: 30 min of a quiet 440 Hz tone, 8 kHz mono (a small file)
    python3 - "$1" <<'PY'
import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(1); out.setsampwidth(2); out.setframerate(8000)
    second = b"".join(struct.pack("<h", int(3000 * math.sin(2 * math.pi * 440 * i / 8000))) for i in range(8000))
    out.writeframes(second * 1800)
PY
}
