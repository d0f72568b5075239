#!/usr/bin/env bash
# player-watch.sh — what following MPRIS players costs the daemon on the bus (issue 23: one player
# directory instead of three watches): for PLAYERS players that appear, play and pause, the match
# rules the daemon holds (the bus's own count, org.freedesktop.DBus.Debug.Stats) and the method
# calls it sends to the players (dbus-monitor), per player.
#
#   Benchmarks/player-watch.sh > result.md      # PLAYERS=20; BIN=<dir with mprisd>
#
# A private bus, the daemon (release build) with no system bus (so no headset object), and
# PLAYERS fake players (Tests/Fixtures/FakePlayer/fake_player.py, each its own connection), which
# appear Paused; once the daemon lists them all, each is set Playing and then Paused by its own
# PropertiesChanged, one after the other. Markdown on stdout, progress on stderr.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
PLAYERS=${PLAYERS:-20}
if [[ -n ${BIN:-} ]]; then bin=$BIN; else build mprisd; fi
fake=$root/Tests/Fixtures/FakePlayer/fake_player.py

start_bus
spawn daemon "$bin/mprisd"
wait_name org.mprisd.AudioPolicy
daemon=$(dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / \
    org.freedesktop.DBus.GetNameOwner string:org.mprisd.AudioPolicy | tr -d ' ')
rules() { # the match rules the bus holds for the daemon's connection
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.Debug.Stats.GetConnectionStats "string:$daemon" |
        awk '/"MatchRules"/ { getline; print $NF }'
}
before=$(rules)
dbus-monitor --session --profile > "$work/monitor" 2> "$work/monitor.err" &
pids[monitor]=$!
spawn_order=(monitor "${spawn_order[@]}")
sleep 0.5  # dbus-monitor has no ready signal; its BecomeMonitor precedes the first player

for (( i = 0; i < PLAYERS; i++ )); do
    spawn "player$i" /usr/bin/python3 "$fake" "bench$i" Paused
done
for (( i = 0; i < PLAYERS; i++ )); do wait_name "org.mpris.MediaPlayer2.bench$i"; done
listed() { "$bin/mprisd" players 2>/dev/null | grep -c 'org.mpris.MediaPlayer2.bench' || true; }
for (( t = 0; t < 200; t++ )); do (( $(listed) >= PLAYERS )) && break; sleep 0.05; done
(( $(listed) >= PLAYERS )) || die "the daemon lists $(listed) of $PLAYERS players"
settled=$(rules)
for (( i = 0; i < PLAYERS; i++ )); do
    for member in Play Pause; do
        dbus-send --session --print-reply --dest="org.mpris.MediaPlayer2.bench$i" /org/mpris/MediaPlayer2 \
            "org.mpris.MediaPlayer2.Player.$member" > /dev/null
    done
done
sleep 1  # nothing to wait on for "no more calls"; a second is many round trips
owners=" "
for (( i = 0; i < PLAYERS; i++ )); do
    owners+=$(dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / \
        org.freedesktop.DBus.GetNameOwner "string:org.mpris.MediaPlayer2.bench$i" | tr -d ' ')" "
done
stop_tag monitor
calls=$(awk -v daemon="$daemon" -v owners="$owners" '$1 == "mc" && $4 == daemon && index(owners, " " $5 " ") { print $8 }' "$work/monitor" |
    sort | uniq -c | awk '{ printf "%s%s %s", sep, $2, $1; sep = ", " }')
total=$(awk -v daemon="$daemon" -v owners="$owners" '$1 == "mc" && $4 == daemon && index(owners, " " $5 " ")' "$work/monitor" | wc -l)
echo "| players | match rules before | with the players | per player | calls to the players | per player | by member |"
echo "|---:|---:|---:|---:|---:|---:|---|"
printf '| %d | %d | %d | %.2f | %d | %.2f | %s |\n' "$PLAYERS" "$before" "$settled" \
    "$(bc -l <<< "($settled - $before) / $PLAYERS")" "$total" "$(bc -l <<< "$total / $PLAYERS")" "$calls"
