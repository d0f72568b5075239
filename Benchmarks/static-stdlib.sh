#!/usr/bin/env bash
# static-stdlib.sh — the Debian package's programs (issue 17): sizes, start-up and the idle
# daemon's memory with the Swift standard library and Foundation linked statically (what the
# package ships) against the ordinary dynamic release build, and playerctld's memory beside them.
#
#   Benchmarks/static-stdlib.sh > result.md      # NAME_ROUNDS=40 EXIT_ROUNDS=100 MEMORY_RUNS=3
#
# Builds the package (scripts/package.sh) and unpacks it: the static programs are exactly the
# installed ones (stripped). The dynamic mprisd is `swift build -c release` (the build of
# scripts/main.sh and the other benchmarks), stripped the same way, loading the Swift libraries from
# the toolchain. Then, on a private bus:
#   - exec -> org.mpris.MediaPlayer2.NAME owned, `mprisd play --device null` of a tone, static and
#     dynamic in turn, NAME_ROUNDS each, with a (static) daemon running as on a desktop;
#   - exec -> exit of `mprisd --version`, of `mprisd control play-pause` (toggling a playing
#     `mprisd play`) and of `mprisd-control play-pause` (static in both builds), EXIT_ROUNDS each;
#   - resident, proportional and private (clean: file pages no other process maps; dirty: written)
#     memory (/proc/PID/smaps_rollup) of the idle daemon, static
#     and dynamic, and of playerctld, each alone on the bus 5 s after it took its name,
#     MEMORY_RUNS times (the median run is shown).
# Markdown on stdout, progress on stderr. Environment: NAME_ROUNDS, EXIT_ROUNDS, MEMORY_RUNS.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
NAME_ROUNDS=${NAME_ROUNDS:-40}
EXIT_ROUNDS=${EXIT_ROUNDS:-100}
MEMORY_RUNS=${MEMORY_RUNS:-3}
for value in "$NAME_ROUNDS" "$EXIT_ROUNDS" "$MEMORY_RUNS"; do
    [[ $value =~ ^[1-9][0-9]*$ ]] || die "NAME_ROUNDS, EXIT_ROUNDS and MEMORY_RUNS are positive integers"
done
command -v playerctld > /dev/null || die "playerctld is needed (package playerctl)"

log "building the package (scripts/package.sh)"
deb=$("$root/scripts/package.sh" --output "$work" | tail -n 1)
dpkg-deb -x "$deb" "$work/root"
static=$work/root/usr/bin
build mprisd
mkdir -p "$work/dynamic"
cp "$bin/mprisd" "$work/dynamic/mprisd"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$work/dynamic/mprisd"
dynamic=$work/dynamic

kib() { echo $(( ($(stat -c %s "$1") + 1023) / 1024 )); }
toolchain_libraries() { # toolchain_libraries BINARY: the Swift libraries it loads, and their size
    ldd "$1" | awk '$3 ~ /^\/opt\/swift\// || $3 ~ /swift\/linux\// { print $3 }' | sort -u
}
dynamic_libraries=$(toolchain_libraries "$dynamic/mprisd")
dynamic_library_kib=0
for library in $dynamic_libraries; do
    dynamic_library_kib=$(( dynamic_library_kib + $(kib "$(readlink -f "$library")") ))
done
[[ -z $(toolchain_libraries "$static/mprisd") ]] || die "the packaged mprisd loads toolchain libraries"

start_bus
make_tone "$work/tone.wav" 30

percentiles() { # percentiles FILE: "LABEL<TAB>samples<TAB>median<TAB>p99<TAB>failed" per label, in order of appearance
    python3 - "$1" <<'PY'
import sys
rows, bad, order = {}, {}, []
for line in open(sys.argv[1]):
    parts = line.rstrip("\n").split("\t")
    label = parts[0]
    if label not in order:
        order.append(label)
    if parts[1] == "failed":
        bad[label] = bad.get(label, 0) + 1
    else:
        rows.setdefault(label, []).append(float(parts[1]))
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]
for label in order:
    values = rows.get(label, [])
    if values:
        print("%s\t%d\t%.2f\t%.2f\t%d" % (label, len(values), pct(values, 50), pct(values, 99), bad.get(label, 0)))
    else:
        print("%s\t0\t-\t-\t%d" % (label, bad.get(label, 0)))
PY
}

log "the daemon (static), then $NAME_ROUNDS rounds of exec -> MPRIS name"
spawn daemon "$static/mprisd"
wait_name org.mprisd.AudioPolicy
python3 "$here/startup-rounds.py" name "$NAME_ROUNDS" \
    "static=$static/mprisd play --device null --name {name} $work/tone.wav" \
    "dynamic=$dynamic/mprisd play --device null --name {name} $work/tone.wav" > "$work/name.tsv"

log "a playing player for the key presses, then $EXIT_ROUNDS rounds of exec -> exit"
spawn player "$static/mprisd" play --device null --name keys --loop track "$work/tone.wav"
wait_name org.mpris.MediaPlayer2.keys
for _ in $(seq 100); do
    "$static/mprisd" players 2>/dev/null | grep -q '^\* 1 org.mpris.MediaPlayer2.keys' && break
    sleep 0.05
done
python3 "$here/startup-rounds.py" exit "$EXIT_ROUNDS" \
    "mprisd --version, static=$static/mprisd --version" \
    "mprisd --version, dynamic=$dynamic/mprisd --version" \
    "mprisd control play-pause, static=$static/mprisd control play-pause" \
    "mprisd control play-pause, dynamic=$dynamic/mprisd control play-pause" \
    "mprisd-control play-pause, static=$static/mprisd-control play-pause" > "$work/exit.tsv"
stop_tag player
stop_tag daemon
wait_gone org.mprisd.AudioPolicy

smaps() { # smaps PID: Rss Pss Private_Clean Private_Dirty (kB) from smaps_rollup
    awk '$1 == "Rss:" { r = $2 } $1 == "Pss:" { p = $2 } $1 == "Private_Clean:" { c = $2 } $1 == "Private_Dirty:" { d = $2 }
         END { print r, p, c, d }' "/proc/$1/smaps_rollup"
}
# Other processes mapping the toolchain's libswiftCore: what the dynamic daemon's proportional
# figure shares with (on a desktop, usually nothing; here, other Swift programs running).
sharers() {
    grep -l "swift/linux/libswiftCore.so" /proc/[0-9]*/maps 2>/dev/null | grep -vc "^/proc/$1/" || true
}
log "idle memory: $MEMORY_RUNS runs of the static daemon, the dynamic daemon and playerctld"
: > "$work/memory"
for (( run = 1; run <= MEMORY_RUNS; run++ )); do
    for variant in static dynamic playerctld; do
        case $variant in
            static) spawn idle "$static/mprisd"; name=org.mprisd.AudioPolicy ;;
            dynamic) spawn idle "$dynamic/mprisd"; name=org.mprisd.AudioPolicy ;;
            playerctld) spawn idle playerctld; name=org.mpris.MediaPlayer2.playerctld ;;
        esac
        wait_name "$name"
        sleep 5
        echo "$variant $(smaps "${pids[idle]}") $(sharers "${pids[idle]}")" >> "$work/memory"
        stop_tag idle
        wait_gone "$name"
    done
done

echo "Machine: $(machine_line)"
echo
echo "| | static (the package) | dynamic (\`swift build -c release\`) |"
echo "|---|---|---|"
echo "| package \`$(basename "$deb")\` | $(kib "$deb") KiB | — |"
echo "| \`mprisd\`, stripped | $(kib "$static/mprisd") KiB | $(kib "$dynamic/mprisd") KiB + $dynamic_library_kib KiB of $(wc -w <<< "$dynamic_libraries") Swift libraries from the toolchain |"
echo "| \`mprisd-control\`, stripped | $(kib "$static/mprisd-control") KiB | (static in both) |"
echo "| shared libraries loaded by \`mprisd\` (ldd) | $(ldd "$static/mprisd" | grep -c '=>') | $(ldd "$dynamic/mprisd" | grep -c '=>') |"
echo
echo "| Start-up | samples | median (ms) | p99 (ms) | failed |"
echo "|---|---|---|---|---|"
percentiles "$work/name.tsv" | awk -F'\t' '{ printf "| exec → MPRIS name, `mprisd play`, %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }'
percentiles "$work/exit.tsv" | awk -F'\t' '{ printf "| exec → exit, `%s` | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' \
    | sed 's/`\(mprisd[^,`]*\), \([a-z]*\)`/`\1`, \2/'
echo
echo "| Idle, 5 s after taking its name (the run of median resident size, of $MEMORY_RUNS) | resident (kB) | proportional (kB) | private clean (kB) | private dirty (kB) | other processes mapping the toolchain's libswiftCore.so |"
echo "|---|---|---|---|---|---|"
for variant in static dynamic playerctld; do
    label=$variant
    [[ $variant == static ]] && label="\`mprisd\` daemon, static"
    [[ $variant == dynamic ]] && label="\`mprisd\` daemon, dynamic"
    [[ $variant == playerctld ]] && label="playerctld $(playerctl --version 2>/dev/null | head -n 1)"
    awk -v v="$variant" '$1 == v { print $2, $3, $4, $5, $6 }' "$work/memory" | sort -n -k1 \
        | awk -v n="$MEMORY_RUNS" -v label="$label" 'NR == int((n + 1) / 2) { printf "| %s | %s | %s | %s | %s | %s |\n", label, $1, $2, $3, $4, $5 }'
done
