#!/usr/bin/env python3
"""pause-device.py — the rounds of Benchmarks/pause-device.sh (issue 18): MPRIS Pause → the device
stopped, for a player on ALSA `pulse` whose stream the script's PulseAudio carries.

  pause-device.py --watch BENCH_PULSE_WATCH --name BUSNAME --rounds N

The device is stopped when the server corks the player's stream (`snd_pcm_pause` on ALSA's pulse
plugin is `pa_stream_cork`; a drop would show as the stream's removal): `bench-pulse-watch`
timestamps the stream's `change` event that made `corked` visible (the last change event of the
stream read before the first info reply showing it corked: events and replies share one connection,
in order). The clock starts just before the Pause call leaves this process (dbus-python, no reply
awaited by the clock; the call itself waits for the reply, or dbus-python would not flush it). Both
are CLOCK_MONOTONIC. Each round plays a random 300–800 ms first (the buffer is
full and refilling at random points), pauses, waits until corked, plays, waits until uncorked.
While paused, MPRIS `Position` is read: from the first pause on, it must have advanced by exactly
the time the stream played between the server's uncork and cork events (issue 18: within 10 ms
over 20 pause/resume cycles). Prints `sample pause MS` and `sample drift MS` lines, `summary pause
n=.. median=.. p99=.. max=.. missed=..` and `summary position cycles=.. drift_after_last_ms=..`.
"""
import argparse, math, random, subprocess, sys, time

import dbus

from benchlines import WAIT, Lines, change_that_showed, parse_pulse_watch


def corked_shown(watch, index, corked, start):
    """Time of the change event of stream `index` that made `corked` visible (from `start`), or None."""
    found = change_that_showed(watch, index, lambda line: line[5] == corked, start,
                               "the stream " + ("corked" if corked else "playing"))
    return None if found is None else found[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--watch", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()

    watch = Lines([args.watch], parse_pulse_watch, "bench-pulse-watch")
    if watch.wait(lambda line: line[0] == "ready", 0, "bench-pulse-watch subscribed") is None:
        sys.exit("bench-pulse-watch did not subscribe")
    # The player's stream: the server's only sink input (the player was playing before we came).
    listed = subprocess.run(["timeout", "10", "pactl", "list", "short", "sink-inputs"],
                            capture_output=True, text=True).stdout.split("\n")
    streams = [int(line.split()[0]) for line in listed if line.strip()]
    if len(streams) != 1:
        sys.exit(f"expected the player's stream alone on the server: {listed}")
    index = streams[0]
    player = dbus.SessionBus().get_object(f"org.mpris.MediaPlayer2.{args.name}", "/org/mpris/MediaPlayer2")
    control = dbus.Interface(player, "org.mpris.MediaPlayer2.Player")
    properties = dbus.Interface(player, "org.freedesktop.DBus.Properties")

    def position():
        return int(properties.Get("org.mpris.MediaPlayer2.Player", "Position")) / 1e6

    samples, missed = [], 0
    # Position against the server's clock: while paused, MPRIS Position must have advanced by the
    # time the stream played between the server's uncork and cork events.
    first_position, played, drifts = None, 0.0, []
    uncorked = None
    for _ in range(args.rounds):
        time.sleep(random.uniform(0.3, 0.8))
        start = watch.mark()
        sent = time.monotonic()
        control.Pause()  # the reply is not waited for by the clock: t0 is taken before
        corked = corked_shown(watch, index, True, start)
        if corked is None:
            missed += 1
            print(f"note: no cork within {WAIT} s", flush=True)
            uncorked = None
        else:
            samples.append((corked - sent) * 1000)
            print(f"sample pause {samples[-1]:.2f}", flush=True)
            now = position()
            if first_position is None:
                first_position = now
            elif uncorked is not None:
                played += corked - uncorked
                drifts.append((now - first_position - played) * 1000)
                print(f"sample drift {drifts[-1]:.2f}", flush=True)
        time.sleep(random.uniform(0.1, 0.3))
        start = watch.mark()
        control.Play()
        uncorked = corked_shown(watch, index, False, start)
        if uncorked is None:
            sys.exit(f"the stream did not play again (a stream of its own after a drop?)")
    samples.sort()
    if samples:
        p99 = samples[min(len(samples) - 1, math.ceil(len(samples) * 0.99) - 1)]
        print(f"summary pause n={len(samples)} median={samples[len(samples) // 2]:.2f} p99={p99:.2f} "
              f"max={samples[-1]:.2f} missed={missed}")
    else:
        print(f"summary pause n=0 missed={missed}")
    if drifts:
        worst = max(drifts, key=abs)
        print(f"summary position cycles={len(drifts)} drift_after_last_ms={drifts[-1]:.2f} "
              f"largest_drift_ms={worst:.2f} (MPRIS Position minus the time played between the server's uncork and cork events)")
    watch.process.terminate()


if __name__ == "__main__":
    main()
