#!/usr/bin/env bash
# control.sh — the media key's path (issue 16): `mprisd control play-pause` (and the lean
# `mprisd-control play-pause`) from exec to the player's PropertiesChanged, against `playerctl -p mpv play-pause` and `playerctl -p playerctld
# play-pause`, side by side on the same mpv, in one run.
#
#   Benchmarks/control.sh > result.md      # ROUNDS=200
#
# Starts a private dbus-daemon, the daemon (`mprisd`, release build), mpv (--ao=null, mpv-mpris, a
# looping tone, playing) and playerctld; then Benchmarks/control-rounds.py runs the three commands
# in turn, ROUNDS times each, the order rotating every round. Each sample: exec -> the
# Pause/Play call reaching mpv (dbus-monitor), -> mpv's PropertiesChanged(PlaybackStatus), -> the
# command's exit. Markdown on stdout (median and p99 of each), progress on stderr.
#
# `playerctl -p mpv` rather than bare `playerctl`: with playerctld on the bus, bare playerctl may
# pick either name; -p makes every sample act on mpv directly.
#
# Environment: ROUNDS; SCRATCH=<dir> (swift build --scratch-path); MPV_MPRIS=<path of mpris.so>;
# PROGRAMS=<dir>: take mprisd and mprisd-control from there instead of building them (the Debian
# package's static programs: `dpkg-deb -x mprisd_*.deb root`, then PROGRAMS=root/usr/bin).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ROUNDS=${ROUNDS:-200}
MPV_MPRIS=${MPV_MPRIS:-/usr/lib/mpv-mpris/mpris.so}
[[ $ROUNDS =~ ^[0-9]+$ ]] || die "ROUNDS must be a non-negative integer"
[[ -f $MPV_MPRIS ]] && command -v mpv > /dev/null || die "mpv and $MPV_MPRIS are needed"
command -v playerctl > /dev/null && command -v playerctld > /dev/null || die "playerctl and playerctld are needed"

if [[ -n ${PROGRAMS:-} ]]; then
    [[ -x $PROGRAMS/mprisd && -x $PROGRAMS/mprisd-control ]] || die "no mprisd and mprisd-control in $PROGRAMS"
    bin=$(cd "$PROGRAMS" && pwd)
else
    build mprisd mprisd-control
fi
start_bus
make_tone "$work/tone.wav" 10

spawn daemon "$bin/mprisd"
wait_name org.mprisd.AudioPolicy
spawn mpv mpv --no-config --idle=yes --ao=null --vo=null --loop-file=inf --script="$MPV_MPRIS" \
    --no-terminal "$work/tone.wav"
wait_name org.mpris.MediaPlayer2.mpv
spawn playerctld playerctld
wait_name org.mpris.MediaPlayer2.playerctld
for (( i = 0; i < 100; i++ )); do
    "$bin/mprisd" players 2>/dev/null | grep -q '^\* 1 org.mpris.MediaPlayer2.mpv ' && break
    sleep 0.05
done
"$bin/mprisd" players | grep -q '^\* 1 org.mpris.MediaPlayer2.mpv ' || die "the daemon does not choose mpv"

log "$ROUNDS rounds of 4 commands"
python3 "$here/control-rounds.py" "$ROUNDS" org.mpris.MediaPlayer2.mpv \
    "mprisd control=$bin/mprisd control play-pause" \
    "mprisd-control=$bin/mprisd-control play-pause" \
    "playerctl=playerctl -p mpv play-pause" \
    "playerctl -p playerctld=playerctl -p playerctld play-pause" > "$work/samples.tsv"

echo "Machine: $(machine_line)"
echo
echo "| Command | samples | exec → call at mpv, median / p99 (ms) | exec → PropertiesChanged, median / p99 (ms) | exec → exit, median / p99 (ms) | missed or failed |"
echo "|---|---|---|---|---|---|"
python3 - "$work/samples.tsv" <<'PY'
import sys
rows = {}
bad = {}
order = []
for line in open(sys.argv[1]):
    parts = line.rstrip("\n").split("\t")
    label = parts[0]
    if label not in order:
        order.append(label)
    if len(parts) != 4:
        bad[label] = bad.get(label, 0) + 1
        continue
    rows.setdefault(label, []).append([float(x) for x in parts[1:]])
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p * (len(values) - 1))))]
for label in order:
    samples = rows.get(label, [])
    cells = []
    for column in range(3):
        values = [s[column] for s in samples]
        cells.append("%.2f / %.2f" % (pct(values, 0.5), pct(values, 0.99)) if values else "–")
    print("| `%s` | %d | %s | %s | %s | %d |" % (label, len(samples), cells[0], cells[1], cells[2], bad.get(label, 0)))
PY
grep -P '\t(missed|failed)' "$work/samples.tsv" | head -5 | sed 's/^/    /' >&2 || true
