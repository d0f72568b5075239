#!/usr/bin/env bash
# unplug.sh — unplug-to-pause latency of `mprisd play` (issue 5): from the jack event (the fake
# card's state file rewritten with the headphones out) to PlaybackStatus=Paused on the bus.
#
#   Benchmarks/unplug.sh            # COUNT=100 unplugs; SCRATCH=<dir> for swift build --scratch-path
#
# Starts a private dbus-daemon, builds the fake ALSA control plugin of the tests
# (Tests/Fixtures/FakeCard), and plays a looping tone through the built-in silent output with
# `--control fake`; bench-unplug then plugs, plays, unplugs and times the pause COUNT times.
set -euo pipefail
COUNT=${COUNT:-100}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
scratch=()
[[ -n ${SCRATCH:-} ]] && scratch=(--scratch-path "$SCRATCH")
cd "$root/Benchmarks"
swift build -c release "${scratch[@]}" --product mprisd >&2
swift build -c release "${scratch[@]}" --product bench-unplug >&2
bin=$(swift build -c release "${scratch[@]}" --show-bin-path)

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

cc -DPIC -fPIC -shared -O2 -o "$work/libasound_module_ctl_fakecard.so" "$root/Tests/Fixtures/FakeCard/fakecard.c" -lasound
mkdir "$work/state"
printf 'headphone=1\nheadsetmic=0\ndockmute=0\nvolume=60,60\nswitch=1,1\n' > "$work/state/state"
cat > "$work/asound.conf" <<CONF
ctl_type.fakecard { lib "$work/libasound_module_ctl_fakecard.so" }
ctl.fake { type fakecard state "$work/state/state" }
CONF
cat > "$work/bus.conf" <<CONF
<busconfig><type>session</type><listen>unix:dir=$work</listen>
<policy context="default"><allow send_destination="*"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
CONF
dbus-daemon --config-file="$work/bus.conf" --nofork --print-address=3 3>"$work/address" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [[ -s $work/address ]] && break; sleep 0.05; done
export DBUS_SESSION_BUS_ADDRESS=$(head -n1 "$work/address")
export ALSA_CONFIG_PATH=$work/asound.conf

python3 - "$work/tone.wav" <<'PY'
import math, struct, sys, wave
with wave.open(sys.argv[1], "wb") as out:
    out.setnchannels(2); out.setsampwidth(2); out.setframerate(44100)
    out.writeframes(b"".join(struct.pack("<hh", int(3000 * math.sin(i / 20)), 0) for i in range(44100 * 5)))
PY
"$bin/mprisd" play --device null --control fake --loop track --name unplug "$work/tone.wav" 2>"$work/player.log" &
pids+=($!)
sleep 1
echo "### Unplug to pause ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- $(nproc) CPUs; \`mprisd play --device null --control fake\` on a private bus; $COUNT unplugs"
echo "- from the state-file write (the jack event) to PlaybackStatus=Paused in a PropertiesChanged"
echo
echo '```'
"$bin/bench-unplug" --state "$work/state/state" --name unplug --count "$COUNT" ${ALL:+--all} ${VIA_DBUS:+--via-dbus}
echo '```'
