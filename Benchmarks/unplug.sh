#!/usr/bin/env bash
# unplug.sh — unplug-to-pause latency of `mprisd play` (issue 5): from the jack event (the fake
# card's state file rewritten with the headphones out) to PlaybackStatus=Paused on the bus.
#
#   Benchmarks/unplug.sh            # COUNT=100 unplugs; SCRATCH=<dir> for swift build --scratch-path
#                                   # ALL=1, VIA_DBUS=1: bench-unplug's --all, --via-dbus
#
# Starts a private dbus-daemon (common.sh), builds the fake ALSA control plugin of the tests
# (Tests/Fixtures/FakeCard), and plays a looping tone through the built-in silent output with
# `--control fake`; bench-unplug then plugs, plays, unplugs and times the pause COUNT times.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
COUNT=${COUNT:-100}
build mprisd bench-unplug
start_bus

cc -DPIC -fPIC -shared -O2 -o "$work/libasound_module_ctl_fakecard.so" "$root/Tests/Fixtures/FakeCard/fakecard.c" -lasound
mkdir "$work/card"
printf 'headphone=1\nheadsetmic=0\ndockmute=0\nvolume=60,60\nswitch=1,1\n' > "$work/card/state"
cat > "$work/asound.conf" <<CONF
ctl_type.fakecard { lib "$work/libasound_module_ctl_fakecard.so" }
ctl.fake { type fakecard state "$work/card/state" }
CONF
export ALSA_CONFIG_PATH=$work/asound.conf

make_tone "$work/tone.wav" 5
spawn player "$bin/mprisd" play --device null --control fake --loop track --name unplug "$work/tone.wav"
sleep 1
echo "### Unplug to pause ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo
echo "- $(nproc) CPUs; \`mprisd play --device null --control fake\` on a private bus; $COUNT unplugs"
echo "- from the state-file write (the jack event) to PlaybackStatus=Paused in a PropertiesChanged"
echo
echo '```'
"$bin/bench-unplug" --state "$work/card/state" --name unplug --count "$COUNT" ${ALL:+--all} ${VIA_DBUS:+--via-dbus}
echo '```'
