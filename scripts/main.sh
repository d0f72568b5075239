#!/usr/bin/env bash
# The main job: builds mprisd (release) and runs `mprisd play` — on the files given, or on two short
# demo tones made on the spot when none are given. Press Ctrl-C to stop; while it plays, try
# `playerctl status`, `playerctl pause`, `playerctl next` in another terminal.
#
# Where the machine lacks something the program falls back to an embedded default and says so:
# without a session bus it runs inside a private one (dbus-run-session); without a sound card it
# plays through the built-in silent output, paced in real time.
#
#   scripts/main.sh                      play the demo tones
#   scripts/main.sh ~/Music/album        play a folder (any `mprisd play` options may come first)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/install-packages.sh
swift build -c release --product mprisd >&2
binary=$(swift build -c release --show-bin-path)/mprisd
if (( $# == 0 )); then
    demo=${TMPDIR:-/tmp}/mprisd-demo
    mkdir -p "$demo"
    python3 - "$demo" <<'PY'
import math, struct, sys, wave
for number, pitch in ((1, 440.0), (2, 554.37)):
    with wave.open(f"{sys.argv[1]}/demo-{number}.wav", "wb") as out:
        out.setnchannels(2); out.setsampwidth(2); out.setframerate(44100)
        frames = bytearray()
        for i in range(44100 * 5):
            v = int(6000 * math.sin(2 * math.pi * pitch * i / 44100))
            frames += struct.pack("<hh", v, v)
        out.writeframes(bytes(frames))
PY
    set -- "$demo/demo-1.wav" "$demo/demo-2.wav"
fi
if [[ -z ${DBUS_SESSION_BUS_ADDRESS:-} && ! -S ${XDG_RUNTIME_DIR:-/nonexistent}/bus ]]; then
    echo "mprisd: no session bus here; running inside a private one (dbus-run-session)" >&2
    exec dbus-run-session -- "$binary" play "$@"
fi
exec "$binary" play "$@"
