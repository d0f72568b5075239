#!/usr/bin/env bash
# soak.sh — memory under a long stream of calls (issue 7, "Soak"): the resident memory (VmRSS) of
# `mprisd play` over 1,000,000 MPRIS calls and of the policy daemon over 100,000 session
# activations and deactivations. Target: growth under 1 MB after the warm-up.
#
#   Benchmarks/soak.sh > result.md        # full counts (about 10 minutes on 2 cores)
#   SCALE=0.05 Benchmarks/soak.sh         # a 5 % run to try it
#
# Builds the release products (mprisd, bench-soak), starts a private dbus-daemon and, in turn:
#   (a) `mprisd play --device null --loop track --name soak tone.wav` (a 1 s tone, looping) and
#       `bench-soak mpris`: MPRIS_WARMUP warm-up calls, then MPRIS_CALLS calls in cycles of six
#       (Get PlaybackStatus, GetAll Player, Get Position, PlayPause, PlayPause, Seek 0);
#   (b) the daemon, `mprisd`, and `bench-soak sessions`: 4 client connections with 8 sessions each
#       (exclusive, ducking, mixable, voice-chat ... configurations), SESSION_WARMUP warm-up calls,
#       then SESSION_CALLS random Activate/Deactivate calls (notifyOthers half of the time); every
#       100 calls a session is unregistered and registered anew, every 10,000 calls a client
#       disconnects and reconnects (its sessions removed by the daemon, then registered anew).
# bench-soak samples the target's VmRSS after the warm-up and every SAMPLE calls. Each target is
# then stopped with SIGTERM and must exit 0.
#
# Markdown report on stdout (paste it into BENCHMARKS.md); progress on stderr; the raw samples are
# kept when KEEP=DIR is given (DIR/mpris.samples, DIR/sessions.samples).
#
# Environment:
#   SCALE=1                     multiplies every call count (warm-ups included)
#   MPRIS_CALLS=1000000 MPRIS_WARMUP=50000 MPRIS_SAMPLE=10000
#   SESSION_CALLS=100000 SESSION_WARMUP=20000 SESSION_SAMPLE=2000
#   PARTS="mpris sessions"      which parts to run
#   SCRATCH=<dir>               swift build --scratch-path
#   MPRISD, SOAK                use these binaries instead of building them
#   KEEP=<dir>                  copy the samples and the targets' logs there
set -euo pipefail

SCALE=${SCALE:-1}
PARTS=${PARTS:-mpris sessions}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

log() { printf '%s\n' "$*" >&2; }
die() { log "soak.sh: $*"; exit 1; }
scaled() { # scaled COUNT: COUNT × SCALE, at least 1
    awk -v n="$1" -v s="$SCALE" 'BEGIN { v = int(n * s + 0.5); print (v < 1 ? 1 : v) }'
}
[[ $SCALE =~ ^[0-9]*\.?[0-9]+$ ]] || die "SCALE must be a positive number, not '$SCALE'"
MPRIS_CALLS=$(scaled "${MPRIS_CALLS:-1000000}")
MPRIS_WARMUP=$(scaled "${MPRIS_WARMUP:-50000}")
MPRIS_SAMPLE=$(scaled "${MPRIS_SAMPLE:-10000}")
SESSION_CALLS=$(scaled "${SESSION_CALLS:-100000}")
SESSION_WARMUP=$(scaled "${SESSION_WARMUP:-20000}")
SESSION_SAMPLE=$(scaled "${SESSION_SAMPLE:-2000}")

# --- Build ---------------------------------------------------------------------------------------
scratch=()
[[ -n ${SCRATCH:-} ]] && scratch=(--scratch-path "$SCRATCH")
if [[ -z ${MPRISD:-} || -z ${SOAK:-} ]]; then
    for product in mprisd bench-soak; do
        log "building $product (release)"
        (cd "$root/Benchmarks" && swift build -c release "${scratch[@]}" --product "$product" >&2) ||
            die "swift build --product $product failed"
    done
    bin=$(cd "$root/Benchmarks" && swift build -c release "${scratch[@]}" --show-bin-path)
    MPRISD=${MPRISD:-$bin/mprisd}
    SOAK=${SOAK:-$bin/bench-soak}
fi
for b in "$MPRISD" "$SOAK"; do [[ -x $b ]] || die "not an executable: $b"; done

# --- Private bus, directories, cleanup -----------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/mprisd-soak.XXXXXX")
bus_pid='' target_pid=''
cleanup() {
    for pid in "$target_pid" "$bus_pid"; do
        [[ -n $pid ]] || continue
        { kill -KILL "$pid" && wait "$pid"; } 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cat > "$work/bus.conf" <<CONF
<busconfig><type>session</type><listen>unix:dir=$work</listen>
<policy context="default"><allow send_destination="*"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
CONF
dbus-daemon --config-file="$work/bus.conf" --nofork --print-address=3 3>"$work/address" 2>/dev/null &
bus_pid=$!
for _ in $(seq 100); do [[ -s $work/address ]] && break; sleep 0.05; done
[[ -s $work/address ]] || die "dbus-daemon printed no address"
export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/address")
# Nothing of the machine: no system bus (logind, BlueZ), private XDG directories (state files).
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent
for d in config state runtime data cache; do mkdir -p -m 700 "$work/xdg-$d"; done
export XDG_CONFIG_HOME=$work/xdg-config XDG_STATE_HOME=$work/xdg-state XDG_RUNTIME_DIR=$work/xdg-runtime
export XDG_DATA_HOME=$work/xdg-data XDG_CACHE_HOME=$work/xdg-cache
unset XDG_SESSION_ID JOURNAL_STREAM || true

# stop_target TAG: SIGTERM, up to 10 s, then the exit status must be 0.
stop_target() {
    local tag=$1 status=0 i
    kill -TERM "$target_pid"
    for (( i = 0; i < 100; i++ )); do kill -0 "$target_pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$target_pid" 2>/dev/null && die "$tag did not exit within 10 s of SIGTERM"
    wait "$target_pid" || status=$?
    target_pid=''
    (( status == 0 )) || die "$tag exited with status $status after SIGTERM: $(tail -n 5 "$work/$tag.log")"
    log "$tag stopped cleanly (SIGTERM, status 0)"
}

# diagnose TAG: when a call went unanswered, what the target's threads are doing (their states,
# and their stacks if gdb is installed), to stderr and, with KEEP, to KEEP/TAG.stuck.
diagnose() {
    local out=$work/$1.stuck t
    if ! kill -0 "$target_pid" 2>/dev/null; then
        log "the target has exited"
        return
    fi
    {
        echo "threads of pid $target_pid (tid comm state wchan):"
        for t in /proc/"$target_pid"/task/*; do
            echo "  ${t##*/} $(cat "$t/comm" 2>/dev/null) $(awk '{ print $3 }' "$t/stat" 2>/dev/null) $(cat "$t/wchan" 2>/dev/null)"
        done
        if command -v gdb > /dev/null; then
            gdb -p "$target_pid" -batch -ex 'thread apply all bt' 2>&1 | grep -E '^(Thread|#)'
        fi
    } > "$out"
    cat "$out" >&2
    if [[ -n ${KEEP:-} ]]; then
        mkdir -p "$KEEP"
        cp "$out" "$work"/*.samples "$work"/*.log "$KEEP"/ 2>/dev/null || true
    fi
}

# run_driver TAG ARGS...: bench-soak, with its samples in $work/TAG.samples.
run_driver() {
    local tag=$1
    shift
    "$SOAK" "$@" --pid "$target_pid" > "$work/$tag.samples" 2> "$work/$tag.driver.err" < /dev/null &
    local driver=$!
    local status=0
    while kill -0 "$driver" 2>/dev/null; do
        sleep 5
        local last
        last=$(grep '^sample' "$work/$tag.samples" | tail -n 1 || true)
        [[ -n $last ]] && log "$tag: $last"
    done
    wait "$driver" || status=$?
    if (( status != 0 )); then
        log "bench-soak $tag failed: $(cat "$work/$tag.driver.err")"
        diagnose "$tag"
        die "bench-soak $tag failed"
    fi
    grep '^result' "$work/$tag.samples" > "$work/$tag.result" || die "bench-soak $tag printed no result"
}

field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1"; }
cpu_busy() { # CPU busy % of the whole machine over 1 s
    local a b
    a=$(awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
    sleep 1
    b=$(awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat)
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[2] - x[2];
                                     printf "%.0f", (t > 0 ? 100 * (y[1] - x[1]) / t : 0) }'
}
rows=()
add_row() { # add_row LABEL TAG
    local r=$work/$2.result
    local growth verdict
    growth=$(field "$r" growth_kb)
    verdict=$(awk -v g="$growth" 'BEGIN { print (g < 1024 ? "yes" : "**no**") }')
    rows+=("| $1 | $(field "$r" warmup) | $(field "$r" calls) | $(field "$r" rss_start_kb) | $(field "$r" rss_end_kb) | $growth | $(field "$r" rss_max_kb) | $(field "$r" slope_kb_per_100k) | $(field "$r" calls_per_s) | $verdict |")
}

busy_before=$(cpu_busy)
log "background CPU load: ${busy_before}%"

# --- (a) MPRIS calls to mprisd play --------------------------------------------------------------
if [[ " $PARTS " == *" mpris "* ]]; then
    python3 - "$work/tone.wav" <<'PY'
import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(2); out.setsampwidth(2); out.setframerate(44100)
    out.writeframes(b"".join(struct.pack("<hh", int(3000 * math.sin(i / 20)), 0) for i in range(44100)))
PY
    "$MPRISD" play --device null --loop track --name soak "$work/tone.wav" > /dev/null 2> "$work/player.log" < /dev/null &
    target_pid=$!
    log "mprisd play: pid $target_pid; $MPRIS_WARMUP warm-up + $MPRIS_CALLS MPRIS calls"
    run_driver mpris mpris --dest org.mpris.MediaPlayer2.soak --calls "$MPRIS_CALLS" \
        --warmup "$MPRIS_WARMUP" --sample-every "$MPRIS_SAMPLE"
    stop_target player
    add_row "\`mprisd play --device null\`, MPRIS calls" mpris
fi

# --- (b) session activations against the daemon --------------------------------------------------
if [[ " $PARTS " == *" sessions "* ]]; then
    # The daemon logs one line per decision: to a file, which is not read during the run.
    "$MPRISD" > /dev/null 2> "$work/daemon.log" < /dev/null &
    target_pid=$!
    log "mprisd (daemon): pid $target_pid; $SESSION_WARMUP warm-up + $SESSION_CALLS activations/deactivations"
    run_driver sessions sessions --calls "$SESSION_CALLS" --warmup "$SESSION_WARMUP" \
        --sample-every "$SESSION_SAMPLE"
    stop_target daemon
    add_row "\`mprisd\` (daemon), session activations/deactivations" sessions
fi
busy_after=$(cpu_busy)

if [[ -n ${KEEP:-} ]]; then
    mkdir -p "$KEEP"
    cp "$work"/*.samples "$KEEP"/ 2>/dev/null || true
    cp "$work"/player.log "$KEEP"/ 2>/dev/null || true
    tail -n 1000 "$work/daemon.log" > "$KEEP/daemon.log.tail" 2>/dev/null || true
fi

# --- Report --------------------------------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "### Soak ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(nproc) CPUs, ${cpu:-unknown CPU}, $(uname -sr); background CPU load ${busy_before}% before, ${busy_after}% after (shared machine)"
echo "- Release builds on a private dbus-daemon; one blocking call at a time from \`bench-soak\` (libdbus)"
echo "- RSS = VmRSS of the target; start = after the warm-up; slope = least-squares fit over all samples"
echo
echo "| Target | warm-up calls | calls | RSS start kB | RSS end kB | growth kB | RSS max kB | slope kB/100k calls | calls/s | growth < 1 MB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|"
printf '%s\n' "${rows[@]}"
if [[ -s $work/sessions.samples ]] && grep -q '^refused' "$work/sessions.samples"; then
    echo
    echo "Policy refusals during the session storm (expected: exclusive sessions meet voice chats):" \
        "$(sed -n 's/^refused name=\([^ ]*\) count=\([0-9]*\)/\1 \2/p' "$work/sessions.samples" | paste -sd, - | sed 's/,/, /g')."
fi
