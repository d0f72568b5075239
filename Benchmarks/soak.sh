#!/usr/bin/env bash
# soak.sh — memory under a long stream of calls (issue 7, "Soak"): the resident memory (VmRSS) of
# `mprisd play` over 1,000,000 MPRIS calls and of the policy daemon over 100,000 session
# activations and deactivations. Target: growth under 1 MB after the warm-up.
#
#   Benchmarks/soak.sh > result.md        # full counts (about 10 minutes on 2 cores)
#   SCALE=0.05 Benchmarks/soak.sh         # a 5 % run to try it
#
# Builds the release products (mprisd, bench-soak), starts a private dbus-daemon (common.sh) and,
# in turn:
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
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
SCALE=${SCALE:-1}
PARTS=${PARTS:-mpris sessions}
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

if [[ -z ${MPRISD:-} || -z ${SOAK:-} ]]; then
    build mprisd bench-soak
    MPRISD=${MPRISD:-$bin/mprisd}
    SOAK=${SOAK:-$bin/bench-soak}
fi
for b in "$MPRISD" "$SOAK"; do [[ -x $b ]] || die "not an executable: $b"; done
# Nothing of the machine: no system bus (logind, BlueZ), private XDG directories (state files).
start_bus

# stop_target TAG: SIGTERM; it must exit within 10 s, with status 0.
stop_target() {
    local status=0
    term_tag "$1" 10 || status=$?
    (( status == 0 )) || die "$1 exited with status $status after SIGTERM: $(tail -n 5 "$work/$1.err")"
    log "$1 stopped cleanly (SIGTERM, status 0)"
}

# keep_logs: with KEEP, the samples and the targets' logs go there.
keep_logs() {
    [[ -n ${KEEP:-} ]] || return 0
    mkdir -p "$KEEP"
    local tag
    for tag in mpris sessions; do
        [[ -f $work/$tag.out ]] && cp "$work/$tag.out" "$KEEP/$tag.samples"
    done
    [[ -f $work/player.err ]] && cp "$work/player.err" "$KEEP/player.log"
    [[ -f $work/daemon.err ]] && tail -n 1000 "$work/daemon.err" > "$KEEP/daemon.log.tail"
    return 0
}

# diagnose TAG TARGET: when a call went unanswered, what the target's threads are doing (their
# states, and their stacks if gdb is installed), to stderr and, with KEEP, to KEEP/TAG.stuck.
diagnose() {
    local out=$work/$1.stuck target_pid=${pids[$2]} t
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
    keep_logs
    [[ -z ${KEEP:-} ]] || cp "$out" "$KEEP"/
}

# run_driver TAG TARGET ARGS...: bench-soak against TARGET (a spawn tag), its samples in $work/TAG.out.
run_driver() {
    local tag=$1 target=$2 last status=0
    shift 2
    spawn "$tag" "$SOAK" "$@" --pid "${pids[$target]}"
    while kill -0 "${pids[$tag]}" 2>/dev/null; do
        sleep 5
        last=$(grep '^sample' "$work/$tag.out" | tail -n 1 || true)
        [[ -n $last ]] && log "$tag: $last"
    done
    wait_tag "$tag" || status=$?
    if (( status != 0 )); then
        log "bench-soak $tag failed: $(cat "$work/$tag.err")"
        diagnose "$tag" "$target"
        die "bench-soak $tag failed"
    fi
    grep '^result' "$work/$tag.out" > "$work/$tag.result" || die "bench-soak $tag printed no result"
}

field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1"; }
rows=()
add_row() { # add_row LABEL TAG
    local r=$work/$2.result
    local growth verdict
    growth=$(field "$r" growth_kb)
    verdict=$(awk -v g="$growth" 'BEGIN { print (g < 1024 ? "yes" : "**no**") }')
    rows+=("| $1 | $(field "$r" warmup) | $(field "$r" calls) | $(field "$r" rss_start_kb) | $(field "$r" rss_end_kb) | $growth | $(field "$r" rss_max_kb) | $(field "$r" slope_kb_per_100k) | $(field "$r" calls_per_s) | $verdict |")
}

busy_before=$(busy_percent 1)
log "background CPU load: ${busy_before}%"

# --- (a) MPRIS calls to mprisd play --------------------------------------------------------------
if [[ " $PARTS " == *" mpris "* ]]; then
    make_tone "$work/tone.wav" 1
    spawn player "$MPRISD" play --device null --loop track --name soak "$work/tone.wav"
    log "mprisd play: pid ${pids[player]}; $MPRIS_WARMUP warm-up + $MPRIS_CALLS MPRIS calls"
    run_driver mpris player mpris --dest org.mpris.MediaPlayer2.soak --calls "$MPRIS_CALLS" \
        --warmup "$MPRIS_WARMUP" --sample-every "$MPRIS_SAMPLE"
    stop_target player
    add_row "\`mprisd play --device null\`, MPRIS calls" mpris
fi

# --- (b) session activations against the daemon --------------------------------------------------
if [[ " $PARTS " == *" sessions "* ]]; then
    # The daemon logs one line per decision: to a file, which is not read during the run.
    spawn daemon "$MPRISD"
    log "mprisd (daemon): pid ${pids[daemon]}; $SESSION_WARMUP warm-up + $SESSION_CALLS activations/deactivations"
    run_driver sessions daemon sessions --calls "$SESSION_CALLS" --warmup "$SESSION_WARMUP" \
        --sample-every "$SESSION_SAMPLE"
    stop_target daemon
    add_row "\`mprisd\` (daemon), session activations/deactivations" sessions
fi
busy_after=$(busy_percent 1)

keep_logs

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
if [[ -s $work/sessions.out ]] && grep -q '^refused' "$work/sessions.out"; then
    echo
    echo "Policy refusals during the session storm (expected: exclusive sessions meet voice chats):" \
        "$(sed -n 's/^refused name=\([^ ]*\) count=\([0-9]*\)/\1 \2/p' "$work/sessions.out" | paste -sd, - | sed 's/,/, /g')."
fi
