#!/usr/bin/env bash
# signals.sh — signal discipline of `mprisd play` (issue 7): every signal it emits during SECONDS
# of playback with one seek and one track change, with the properties each PropertiesChanged
# carried. Target: only the signals the changes require, and none for Position.
#
#   Benchmarks/signals.sh > result.md       # SECONDS=60 (read before anything else; SECONDS=20 to try)
#
# A private dbus-daemon with `dbus-monitor` watching every signal; then, started together, two
# players of the same two-track queue (track 1: a 440 Hz tone of 0.6*SECONDS + 5 s, track 2: 660 Hz,
# SECONDS long): `mprisd play --device null --name bench` and, for comparison, mpv + mpv-mpris
# (--ao=null). At SECONDS/4 both get Seek(+5 s) over MPRIS, so track 1 ends and track 2 starts at
# about 0.6*SECONDS; the monitor stops at SECONDS. Each signal is listed with its time since the
# start, its sender and what it carried. Markdown on stdout, progress on stderr.
window=$SECONDS
(( window >= 1 )) || window=60
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
MPV_MPRIS=${MPV_MPRIS:-/usr/lib/mpv-mpris/mpris.so}
(( window >= 12 )) || die "SECONDS must be at least 12"

build mprisd
start_bus
first=$(( window * 6 / 10 + 5 ))
make_tone "$work/track1.wav" "$first" 440
make_tone "$work/track2.wav" "$window" 660
MPRIS=/org/mpris/MediaPlayer2

spawn monitor dbus-monitor --session "type='signal'"
sleep 1
start=$(date +%s.%N)
spawn play "$bin/mprisd" play --device null --name bench "$work/track1.wav" "$work/track2.wav"
players=(org.mpris.MediaPlayer2.bench)
if [[ -f $MPV_MPRIS ]] && command -v mpv > /dev/null; then
    spawn mpv mpv --no-config --ao=null --vo=null --no-terminal --script="$MPV_MPRIS" \
        "$work/track1.wav" "$work/track2.wav"
    players+=(org.mpris.MediaPlayer2.mpv)
fi
senders=()
for name in "${players[@]}"; do
    wait_name "$name"
    senders+=("$(dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / \
        org.freedesktop.DBus.GetNameOwner "string:$name" | awk '{ print $1 }')=$name")
done
elapsed() { awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { printf "%.3f", n - s }'; }
sleep_until() { # sleep_until SECONDS-SINCE-START
    local left
    left=$(awk -v s="$start" -v n="$(date +%s.%N)" -v t="$1" 'BEGIN { d = t - (n - s); printf "%.3f", (d > 0 ? d : 0) }')
    sleep "$left"
}
sleep_until $(( window / 4 ))
seek_at=$(elapsed)
for name in "${players[@]}"; do
    dbus-send --session --print-reply --dest="$name" $MPRIS org.mpris.MediaPlayer2.Player.Seek int64:5000000 > /dev/null
done
log "seeked +5 s at ${seek_at} s; track 1 ends at about $(( window * 6 / 10 )) s"
sleep_until "$window"
stop_tag monitor
for name in "${players[@]}"; do
    [[ $(dbus-send --session --print-reply=literal --dest="$name" $MPRIS org.freedesktop.DBus.Properties.Get \
        string:org.mpris.MediaPlayer2.Player string:PlaybackStatus | awk '{ print $NF }') == Playing ]] ||
        die "$name is not playing at the end: $(tail -n 5 "$work/play.err" "$work/mpv.err" 2>/dev/null)"
done

echo "### Signal discipline ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- Machine: $(machine_line)"
echo "- ${window} s from the players' start; Seek(+5 s) at ${seek_at} s; track 1 ends (natural end) at about $(( window * 6 / 10 )) s; \`dbus-monitor --session \"type='signal'\"\` on the private bus"
echo
python3 - "$work/monitor.out" "$start" "$seek_at" "$(( window * 6 / 10 ))" "${senders[@]}" <<'PY'
import re, sys
path, start, seek_at, track_end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
senders = dict(s.split("=", 1) for s in sys.argv[5:])
header = re.compile(r"^signal time=([0-9.]+) sender=(\S+) -> destination=.*? serial=\d+ path=(\S+); interface=(\S+); member=(\S+)")
signals, current = [], None
for line in open(path, encoding="utf-8", errors="replace"):
    m = header.match(line)
    if m:
        current = None
        if m.group(5) == "NameOwnerChanged":
            # The bus's own signal: kept when it is about a player's well-known name (the row
            # shows where the player's signals stand against its name appearing).
            current = {"t": float(m.group(1)) - start, "player": None, "path": m.group(3),
                       "iface": m.group(4), "member": m.group(5), "body": [], "bus": True}
            signals.append(current)
        elif m.group(2) in senders:
            current = {"t": float(m.group(1)) - start, "player": senders[m.group(2)], "path": m.group(3),
                       "iface": m.group(4), "member": m.group(5), "body": []}
            signals.append(current)
        continue
    if line.startswith(("method call", "method return", "error")):
        current = None
    elif current is not None:
        current["body"].append(line.rstrip("\n"))
def describe(s):
    if s["member"] != "PropertiesChanged":
        value = " ".join(l.strip() for l in s["body"])
        return value
    changed, invalidated, depth, after_entry, arrays = [], [], 0, False, 0
    for l in s["body"]:
        if re.match(r"^   array \[", l):
            arrays += 1
        elif l.startswith("      dict entry("):
            after_entry = True
        elif after_entry:
            m = re.match(r'^         string "(.*)"$', l)
            if m:
                changed.append(m.group(1))
            after_entry = False
        elif arrays == 2:
            m = re.match(r'^      string "(.*)"$', l)
            if m:
                invalidated.append(m.group(1))
    iface = next((re.match(r'^   string "(.*)"$', l).group(1) for l in s["body"] if re.match(r'^   string "(.*)"$', l)), "?")
    text = iface.replace("org.mpris.MediaPlayer2", "…") + ": " + ", ".join(changed)
    if invalidated:
        text += "; invalidated: " + ", ".join(invalidated)
    return text
def cause(t):
    if t < 3: return "start"
    if abs(t - seek_at) < 1.5: return "seek"
    if abs(t - track_end) < 2.5: return "track change"
    return "**none**"
for s in signals:
    if s.get("bus"):
        names = re.findall(r'string "(.*)"', "\n".join(s["body"]))
        if names and names[0] in senders.values() and len(names) == 3 and names[2]:
            s["player"], s["member"] = names[0], "(bus) NameOwnerChanged"
signals = [s for s in signals if s["player"] is not None]
for player in dict.fromkeys(senders.values()):
    mine = [s for s in signals if s["player"] == player and not s.get("bus")]
    rows = [s for s in signals if s["player"] == player]
    position = sum(1 for s in mine if s["member"] == "PropertiesChanged" and "Position" in describe(s))
    by_cause = {}
    for s in mine:
        by_cause[cause(s["t"])] = by_cause.get(cause(s["t"]), 0) + 1
    seeked = sum(1 for s in mine if s["member"] == "Seeked")
    pc = sum(1 for s in mine if s["member"] == "PropertiesChanged")
    print(f"**{player}**: {len(mine)} signals — {pc} PropertiesChanged, {seeked} Seeked, "
          f"{len(mine) - pc - seeked} other; carrying Position: {position}; by cause: "
          + ", ".join(f"{k} {v}" for k, v in by_cause.items()))
    print()
    print("| t (s) | signal | carried | cause |")
    print("|---:|---|---|---|")
    for s in rows:
        if s.get("bus"):
            print(f"| {s['t']:.3f} | {s['member']} | the name gets its owner (not counted) | |")
        else:
            print(f"| {s['t']:.3f} | {s['member']} | {describe(s)} | {cause(s['t'])} |")
    print()
PY
