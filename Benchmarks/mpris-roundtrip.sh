#!/usr/bin/env bash
# mpris-roundtrip.sh — MPRIS call round trip (issue 7): `mprisd play` against mpv + mpv-mpris and
# against the plain-libdbus C reference player, side by side on one private bus, in one run.
#
#   Benchmarks/mpris-roundtrip.sh > result.md      # ROUNDS=3 CALLS=10000 WARMUP=1000
#
# Starts a private dbus-daemon, then three players of the same 10 s tone, looping, all playing:
#   mprisd play --device null --loop track --name bench     (org.mpris.MediaPlayer2.bench)
#   mpv --no-config --idle=yes --ao=null --vo=null --loop-file=inf --script=mpris.so
#                                                           (org.mpris.MediaPlayer2.mpv)
#   bench-mpris-server-c                                    (org.mpris.MediaPlayer2.benchc)
# and measures three calls with bench-mpris-client (libdbus, blocking): Properties.Get of
# PlaybackStatus, Properties.GetAll of org.mpris.MediaPlayer2.Player, and PlayPause (an even
# number, so every player ends playing; checked). Each round runs one client per method that
# alternates the three players call by call (C, mprisd, mpv, C, ...), WARMUP unmeasured + CALLS
# measured calls per player: drift in the machine's load hits all three alike. Per player and
# method the report gives the median over rounds of the round's median and p99, and the ratio to
# the C reference. Markdown on stdout, progress on stderr.
#
# Environment: ROUNDS CALLS WARMUP; SCRATCH=<dir> (swift build --scratch-path); MPV_MPRIS=<path of
# mpris.so> (default /usr/lib/mpv-mpris/mpris.so; absent: mpv is left out).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ROUNDS=${ROUNDS:-3}
CALLS=${CALLS:-10000}
WARMUP=${WARMUP:-1000}
MPV_MPRIS=${MPV_MPRIS:-/usr/lib/mpv-mpris/mpris.so}
for v in ROUNDS CALLS WARMUP; do
    [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a non-negative integer"
done

build mprisd bench-mpris-server-c bench-mpris-client
start_bus
make_tone "$work/tone.wav" 10

C_NAME=org.mpris.MediaPlayer2.benchc
MPRISD_NAME=org.mpris.MediaPlayer2.bench
MPV_NAME=org.mpris.MediaPlayer2.mpv
spawn c "$bin/bench-mpris-server-c" --name "$C_NAME"
spawn mprisd "$bin/mprisd" play --device null --loop track --name bench "$work/tone.wav"
targets=(c mprisd)
names=("$C_NAME" "$MPRISD_NAME")
if [[ -f $MPV_MPRIS ]] && command -v mpv > /dev/null; then
    spawn mpv mpv --no-config --idle=yes --ao=null --vo=null --loop-file=inf --script="$MPV_MPRIS" \
        --no-terminal "$work/tone.wav"
    targets+=(mpv)
    names+=("$MPV_NAME")
else
    log "mpv or $MPV_MPRIS missing: mpv left out"
fi
for name in "${names[@]}"; do wait_name "$name"; done

status_of() { # status_of BUSNAME: PlaybackStatus
    dbus-send --session --print-reply=literal --dest="$1" /org/mpris/MediaPlayer2 \
        org.freedesktop.DBus.Properties.Get string:org.mpris.MediaPlayer2.Player string:PlaybackStatus |
        awk '{ print $NF }'
}
check_playing() { # check_playing WHEN [warn]: every player Playing, else die (or, with warn, a note)
    local i name status
    for i in "${!names[@]}"; do
        name=${names[$i]}
        for _ in $(seq 40); do
            status=$(status_of "$name")
            [[ $status == Playing ]] && break
            sleep 0.05
        done
        if [[ $status != Playing ]]; then
            [[ ${2:-} == warn ]] || die "${targets[$i]} is '$status' $1, not Playing"
            log "warning: ${targets[$i]} is '$status' $1, not Playing"
            notes+=("**${targets[$i]} was '$status' $1**, after an even number of PlayPause calls: two toggles in a row did not cancel out.")
        fi
    done
}
notes=()
sleep 1
check_playing "before the rounds"
busy_before=$(busy_percent 2)
log "background CPU load before the rounds: ${busy_before}% ($(cut -d' ' -f1-3 /proc/loadavg))"

methods=(Get GetAll PlayPause)
: > "$work/rounds"
for (( round = 1; round <= ROUNDS; round++ )); do
    for method in "${methods[@]}"; do
        args=()
        for name in "${names[@]}"; do args+=(--dest "$name"); done
        "$bin/bench-mpris-client" "${args[@]}" --method "$method" --calls "$CALLS" --warmup "$WARMUP" \
            > "$work/client.out" 2> "$work/client.err" || die "client failed ($method): $(cat "$work/client.err")"
        for i in "${!names[@]}"; do
            line=$(grep -m 1 "^dest=${names[$i]} " "$work/client.out")
            median=$(sed -n 's/.* median_us=\([0-9.]*\).*/\1/p' <<< "$line")
            p99=$(sed -n 's/.* p99_us=\([0-9.]*\).*/\1/p' <<< "$line")
            echo "$round $method ${targets[$i]} $median $p99" >> "$work/rounds"
            log "round $round/$ROUNDS $method $(printf '%-6s' "${targets[$i]}") $line"
        done
    done
done
check_playing "after the rounds" warn
busy_after=$(busy_percent 2)
for t in "${targets[@]}"; do
    kill -0 "${pids[$t]}" 2>/dev/null || die "$t died during the run: $(tail -n 5 "$work/$t.err")"
done

median_of() { # median_of TARGET METHOD COLUMN(4=median, 5=p99)
    awk -v t="$1" -v m="$2" -v c="$3" '$3 == t && $2 == m { print $c }' "$work/rounds" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

echo "### MPRIS call round trip ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line); libdbus $(pkg-config --modversion dbus-1 2>/dev/null || echo '?'), $(dbus-daemon --version | head -n 1)"
echo "- $(mpv_version); mpv-mpris $(dpkg-query -W -f '${Version}' mpv-mpris 2>/dev/null || echo '?')"
echo "- Private dbus-daemon, no CPU pinning; $ROUNDS rounds, each: $WARMUP warm-up + $CALLS blocking calls per player and method, the players taking turns call by call"
echo "- Background CPU load (all CPUs, players playing, no calls): ${busy_before}% before the rounds, ${busy_after}% after"
echo "- Figures: median over rounds of each round's median / p99 round trip (µs), client side, through the bus"
echo
echo "| Call | Player | median µs | ×C | p99 µs | ×C |"
echo "|---|---|---:|---:|---:|---:|"
for method in "${methods[@]}"; do
    cm=$(median_of c "$method" 4)
    cp=$(median_of c "$method" 5)
    for t in "${targets[@]}"; do
        m=$(median_of "$t" "$method" 4)
        p=$(median_of "$t" "$method" 5)
        echo "| $method | $t | $m | $(ratio "$m" "$cm")× | $p | $(ratio "$p" "$cp")× |"
    done
done
echo
for note in "${notes[@]}"; do echo "$note"; echo; done
echo "<details><summary>Per-round median / p99 (µs)</summary>"
echo
echo '```'
awk '{ printf "round %s %-9s %-6s median %8s p99 %8s\n", $1, $2, $3, $4, $5 }' "$work/rounds"
echo '```'
echo
echo "</details>"
