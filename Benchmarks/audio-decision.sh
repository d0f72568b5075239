#!/usr/bin/env bash
# audio-decision.sh — from an event to the daemon's decision visible in the audio server
# (issue 14), on each server: median and p99 over ROUNDS rounds. Target: p99 < 30 ms.
#
#   Benchmarks/audio-decision.sh > result.md    # SERVERS="pulseaudio pipewire" ROUNDS=100 ROLE_ROUNDS=100
#                                               # KEEP_LOGS=DIR: the daemon's log and the rounds kept there
#
# Per server: a private bus, a fresh server (audio-servers.sh), a fresh daemon (release build)
# finding it as any libpulse client does, and Benchmarks/audio-decision.py for the rounds:
#   (a) a ducked session's new stream → its volume lowered: `mprisd run --mix --duck -- sleep`
#       active, `mprisd run -- bash` starting one paplay per round; from the stream's `new`
#       event to the `change` event that shows it ducked. Once with a fresh restore key per
#       stream (its own client name, no role), once (ROLE_ROUNDS) with media.role=music on every
#       stream (the server's restore database then starts each stream at the ducked volume the
#       previous one ended with, and the daemon sets it right before ducking it);
#   (b) a session activating with duckOthers → an already playing managed stream lowered:
#       bench-duck-client's Activate, from just before the call to the `change` event; also the
#       call's round trip, and Deactivate → the user's volume back.
# Both timestamps of a latency come from one clock (CLOCK_MONOTONIC) and, on the server's side,
# from one libpulse subscriber (bench-pulse-watch); each ducked volume is checked again with
# `pactl list sink-inputs`. Markdown on stdout, progress on stderr.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/audio-servers.sh"
SERVERS=${SERVERS:-"pulseaudio pipewire"}
ROUNDS=${ROUNDS:-100}
ROLE_ROUNDS=${ROLE_ROUNDS:-$ROUNDS}

build mprisd bench-pulse-watch bench-duck-client
# A quiet 440 Hz tone, long enough for any round (8 kHz mono keeps the file small).
python3 - "$work/tone.wav" <<'PY'
import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(1); out.setsampwidth(2); out.setframerate(8000)
    second = b"".join(struct.pack("<h", int(3000 * math.sin(2 * math.pi * 440 * i / 8000))) for i in range(8000))
    out.writeframes(second * 900)
PY
: > "$work/rows"
versions=()

sched() { # sched PID: "RUN-NS WAIT-NS" summed over its threads (/proc/PID/task/*/schedstat)
    cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ r += $1; w += $2 } END { printf "%d %d", r, w }'
}
row() { # row SERVER WHAT SUMMARY-LINE
    local n median p99 max missed
    read -r n median p99 max missed < <(sed -E 's/.* n=([0-9]+)( median=([0-9.]+) p99=([0-9.]+) max=([0-9.]+))? missed=([0-9]+).*/\1 \3 \4 \5 \6/' <<< "$3")
    echo "| $1 | $2 | $n | ${median:--} | ${p99:--} | ${max:--} | $missed |" >> "$work/rows"
}

for server in $SERVERS; do
    start_bus
    rm -rf "$XDG_STATE_HOME/mprisd"  # no journal of the previous server's daemon
    start_server "$server"
    versions+=("$server: $(server_version)")
    spawn daemon "$bin/mprisd"
    wait_name org.mprisd.AudioPolicy
    for (( i = 0; i < 200; i++ )); do
        grep -q "connected to the audio server" "$work/daemon.err" && break
        sleep 0.05
    done
    grep -q "connected to the audio server" "$work/daemon.err" || die "the daemon did not connect: $(cat "$work/daemon.err")"
    run() { # run NAME ARGS...: the rounds, their output kept in $work/NAME.txt
        local name=$1 before after
        shift
        log "$server: $name"
        before=$(sched "${pids[daemon]}")
        timeout 1800 python3 "$here/audio-decision.py" "$@" --bin "$bin" --tone "$work/tone.wav" > "$work/$server-$name.txt" ||
            die "$server $name failed: $(tail -n 5 "$work/$server-$name.txt"); daemon: $(tail -n 20 "$work/daemon.err")"
        after=$(sched "${pids[daemon]}")
        grep -E '^(summary|note)' "$work/$server-$name.txt" >&2
        # The daemon's time on a CPU and waiting for one (in the run queue), per round.
        awk -v a="$before" -v b="$after" -v n="$(grep -cE '^sample (new|activate)-to-ducked' "$work/$server-$name.txt")" -v what="$server, $name" 'BEGIN {
            split(a, x, " "); split(b, y, " "); if (n == 0) n = 1
            printf "- %s: the daemon ran %.2f ms and waited %.2f ms for a CPU per round (schedstat, all threads, %d rounds)\n",
                what, (y[1] - x[1]) / 1e6 / n, (y[2] - x[2]) / 1e6 / n, n }' >> "$work/sched"
    }
    run stream stream --rounds "$ROUNDS"
    row "$server" "(a) new stream → ducked, fresh restore key" "$(grep '^summary new-to-ducked' "$work/$server-stream.txt")"
    grep '^note change' "$work/$server-stream.txt" | sed "s/^note /- $server, (a) fresh key: /" >> "$work/notes"
    if (( ROLE_ROUNDS > 0 )); then
        run role stream --rounds "$ROLE_ROUNDS" --role music
        row "$server" "(a) new stream → ducked, media.role=music (restored ducked)" "$(grep '^summary new-to-ducked' "$work/$server-role.txt")"
        grep '^note change' "$work/$server-role.txt" | sed "s/^note /- $server, (a) role music: /" >> "$work/notes"
    fi
    run activate activate --rounds "$ROUNDS"
    row "$server" "(b) Activate call round trip" "$(grep '^summary activate-call' "$work/$server-activate.txt")"
    row "$server" "(b) Activate (duckOthers) → other stream ducked" "$(grep '^summary activate-to-ducked' "$work/$server-activate.txt")"
    row "$server" "(b) Deactivate → other stream's volume back" "$(grep '^summary deactivate-to-restored' "$work/$server-activate.txt")"
    grep -hE '^note (round|stopped)' "$work/$server-"*.txt | sed "s/^note /- $server: /" >> "$work/notes" || true
    stop_tag daemon
    [[ -n ${KEEP_LOGS:-} ]] && mkdir -p "$KEEP_LOGS" && cp "$work/daemon.err" "$KEEP_LOGS/$server-daemon.log" &&
        cp "$work/$server-"*.txt "$KEEP_LOGS/"
    stop_server
    stop_tag bus
done

echo "### Event → decision visible in the audio server ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- Servers: $(IFS=';'; echo "${versions[*]}")"
echo "- $ROUNDS rounds each ((a) with media.role: $ROLE_ROUNDS); times in ms; p99 by nearest rank; missed: no ducked volume within 10 s or pactl disagreed"
echo
echo "| server | what | n | median ms | p99 ms | max ms | missed |"
echo "|---|---|---:|---:|---:|---:|---:|"
cat "$work/rows"
if [[ -s $work/notes ]]; then
    echo
    cat "$work/notes"
fi
echo
cat "$work/sched"
