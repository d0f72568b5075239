#!/usr/bin/env python3
"""sink-loss.py — the rounds of Benchmarks/sink-loss.sh (issue 23): a sink going away under a
playing mpv → the daemon's Pause to it, once.

  sink-loss.py --watch BENCH_PULSE_WATCH --mprisd MPRISD --tone FILE --rounds N

Each round loads a sink `usb-dac` (pactl), starts an mpv (mpv-mpris, `--ao=pulse`) on it and waits
until the daemon says it plays there (`mprisd status --json`: `audibleOn`), then unloads the sink.
Timed: the server's `remove` event of the sink (bench-pulse-watch, CLOCK_MONOTONIC as it arrives) →
the daemon's `Pause` method call to that mpv on the bus (dbus-monitor, read here: time.monotonic()
on arrival, the same clock). Counted: the Pause calls to it within 300 ms (must be 1 a round); the
unused default sink and its other sources of Pause (none) are the tests' to check. Prints
`sample MS` lines and `summary n=.. median=.. p99=.. max=.. pauses=.. missed=..` (pauses: the
total over all rounds).
"""
import argparse, json, os, subprocess, sys, time

from benchlines import WAIT, Lines, parse_pulse_watch


def pactl(*args):
    return subprocess.run(["timeout", "10", "pactl", *args], capture_output=True, text=True, check=True).stdout.strip()


def parse_monitor(raw):
    """dbus-monitor's header lines of method calls, with the time they arrived here."""
    if not raw.startswith("method call"):
        return None
    fields = dict(part.split("=", 1) for part in raw.split() if "=" in part)
    return ("call", time.monotonic(), fields.get("member"), fields.get("destination"))


def status(mprisd):
    out = subprocess.run([mprisd, "status", "--json"], capture_output=True, text=True, timeout=10).stdout
    return json.loads(out)


def start_mpv(tone, sink):
    env = dict(os.environ)
    if sink:
        env["PULSE_SINK"] = sink
    return subprocess.Popen(["mpv", "--no-config", "--idle=yes", "--ao=pulse", "--vo=null", "--no-terminal",
                             "--script=/usr/lib/mpv-mpris/mpris.so", "--loop-file=inf", tone],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def owner_of(pid, deadline):
    """The unique name and MPRIS name of process `pid`, once it owns one."""
    while time.monotonic() < deadline:
        names = subprocess.run(["busctl", "--user", "--json=short", "list"], capture_output=True, text=True).stdout
        for entry in json.loads(names or "[]"):
            if entry.get("name", "").startswith("org.mpris.MediaPlayer2.") and entry.get("pid") == pid:
                return entry["connection"], entry["name"]
        time.sleep(0.05)
    sys.exit(f"mpv {pid} took no MPRIS name")


def wait_until(what, condition):
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    print(f"missed: {what}", file=sys.stderr)
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--watch", required=True)
    parser.add_argument("--mprisd", required=True)
    parser.add_argument("--tone", required=True)
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()

    watch = Lines([args.watch], parse_pulse_watch, "bench-pulse-watch")
    if watch.wait(lambda line: line[0] == "ready", 0, "bench-pulse-watch subscribed") is None:
        sys.exit("bench-pulse-watch did not subscribe")
    monitor = Lines(["dbus-monitor", "--session", "type='method_call',member='Pause'"], parse_monitor, "dbus-monitor")
    samples, missed, pauses = [], 0, 0
    for _ in range(args.rounds):
        module = pactl("load-module", "module-null-sink", "sink_name=usb-dac")
        lost = start_mpv(args.tone, "usb-dac")
        unique, name = owner_of(lost.pid, time.monotonic() + 30)

        def audible():
            players = {p["busName"]: p for p in status(args.mprisd).get("players", [])}
            return players.get(name, {}).get("audibleOn") == ["usb-dac"] and players.get(name, {}).get("status") == "Playing"
        if not wait_until("the daemon hears mpv on usb-dac", audible):
            missed += 1
            lost.kill(); lost.wait(); pactl("unload-module", module)
            continue
        watch_start, monitor_start = watch.mark(), monitor.mark()
        pactl("unload-module", module)
        removed = watch.wait(lambda line: line[0] == "event" and line[2] == "sink-remove", watch_start, "the sink's removal")
        paused = monitor.wait(lambda line: line[2] == "Pause" and line[3] == unique, monitor_start, "the daemon's Pause")
        if removed is None or paused is None:
            missed += 1
        else:
            ms = (monitor.line(paused)[1] - watch.line(removed)[1]) * 1000
            samples.append(ms)
            print(f"sample {ms:.3f}", flush=True)
        # Any further Pause would come within this settling time; then the round's calls are counted.
        time.sleep(0.3)
        calls = monitor.between(monitor_start, monitor.mark())
        pauses += sum(1 for c in calls if c[2] == "Pause" and c[3] == unique)
        lost.kill()
        lost.wait()
    watch.stop()
    monitor.stop()
    samples.sort()
    if samples:
        p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
        median = samples[len(samples) // 2]
        print(f"summary n={len(samples)} median={median:.2f} p99={p99:.2f} max={samples[-1]:.2f} "
              f"pauses={pauses} missed={missed}")
    else:
        print(f"summary n=0 median=- p99=- max=- pauses={pauses} missed={missed}")


if __name__ == "__main__":
    main()
