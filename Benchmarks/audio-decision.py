#!/usr/bin/env python3
"""audio-decision.py — the rounds of Benchmarks/audio-decision.sh (issue 14), against a daemon and
an audio server the script started: how long from an event to the daemon's decision visible in
the server.

  audio-decision.py stream   --bin DIR --tone FILE --rounds N [--role ROLE]
  audio-decision.py activate --bin DIR --tone FILE --rounds N

One `bench-pulse-watch` (a libpulse client subscribed to the sink inputs) takes every timestamp on
the server's side: the `new` event of a stream and the `change` event that made the ducked volume
visible (the last `change` of that stream read before the first info reply showing the ducked
volume: events and replies share one connection, in order). Timestamps are CLOCK_MONOTONIC
(time.monotonic() here, clock_gettime in the C helpers).

stream:   a ducker (`mprisd run --category playback --mix --duck -- sleep`) is active; a managed
          playback session (`mprisd run --category playback -- bash`) starts one paplay stream
          per round; timed: the stream's `new` event → the `change` event showing it ducked.
          Each paplay has a client name of its own (a fresh restore key) unless --role is given:
          then every stream has media.role=ROLE, and the server's restore database hands each
          new stream the volume the previous one ended with (ducked).
activate: a managed playback stream plays (`mprisd run -- paplay`); bench-duck-client activates
          a session with duckOthers (and deactivates it after each round); timed: the Activate
          call's round trip, and its start → the `change` event showing the stream ducked (and
          Deactivate → the user's volume back).

Rounds of `stream` stop after 3 in a row without the ducked volume (each waits 10 s).
Prints `sample NAME MS` lines, then `summary NAME n=.. median=.. p99=.. max=.. missed=..`, and
`note ...` lines; exits non-zero when the setup fails.
"""
import argparse, json, math, os, subprocess, sys, time

from benchlines import WAIT, Lines, change_that_showed, parse_pulse_watch

NORM = 65536
DUCKED = round(NORM * 0.3)  # the daemon's duck ratio on the user's volume (ChannelVolume.scaled)


def pulse_watch(exe):
    """bench-pulse-watch, started and subscribed."""
    watch = Lines([exe], parse_pulse_watch, "bench-pulse-watch")
    if watch.wait(lambda line: line[0] == "ready", 0, "bench-pulse-watch subscribed") is None:
        sys.exit("bench-pulse-watch did not subscribe")
    return watch


def volume_shown(watch, index, volume, start, what):
    """(time of the change event that made `volume` visible, changes of `index` seen before it)
    from `start`; None on timeout."""
    return change_that_showed(watch, index, lambda line: line[3] == volume, start, what)


def pactl_volume(index):
    """The stream's largest channel volume and mute as `pactl list sink-inputs` shows them."""
    out = subprocess.run(["timeout", "10", "pactl", "-f", "json", "list", "sink-inputs"],
                         capture_output=True, text=True, check=True).stdout
    for stream in json.loads(out):
        if stream.get("index") == index:
            values = [int(ch["value"]) for ch in stream.get("volume", {}).values()]
            return max(values), stream.get("mute")
    return None


def status(mprisd):
    out = subprocess.run(["timeout", "10", mprisd, "status", "--json"], capture_output=True, text=True)
    return json.loads(out.stdout) if out.returncode == 0 else None


def wait_status(mprisd, predicate, what, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        document = status(mprisd)
        if document is not None and predicate(document):
            return document
        time.sleep(0.1)
    sys.exit(f"timed out waiting for {what}; status: {status(mprisd)}")


def session(document, name):
    return next((s for s in document.get("sessions", []) if s["name"] == name), None)


def summary(name, samples, missed):
    if not samples:
        print(f"summary {name} n=0 missed={missed}")
        return
    ordered = sorted(samples)
    p99 = ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]  # nearest rank
    median = ordered[len(ordered) // 2] if len(ordered) % 2 else (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2
    print(f"summary {name} n={len(samples)} median={median:.2f} p99={p99:.2f} max={ordered[-1]:.2f} missed={missed}")


def stream_rounds(args, mprisd, watch):
    role = f" --property=media.role={args.role}" if args.role else ""
    script = ('while read -r n; do paplay --client-name="bench-$n" --property=mprisd.bench="$n"' + role
              + ' "$BENCH_TONE" & p=$!; read -r _; kill "$p"; wait "$p" 2>/dev/null; done')
    music = subprocess.Popen([mprisd, "run", "--category", "playback", "--name", "music", "--", "bash", "-c", script],
                             stdin=subprocess.PIPE, text=True, bufsize=1, env=dict(os.environ, BENCH_TONE=args.tone))
    wait_status(mprisd, lambda d: (session(d, "music") or {}).get("active"), "music's session active")
    ducker = subprocess.Popen([mprisd, "run", "--category", "playback", "--mix", "--duck", "--name", "ducker",
                               "--", "sleep", "100000"])
    wait_status(mprisd, lambda d: (session(d, "ducker") or {}).get("active") and (session(d, "music") or {}).get("ducked"),
                "the ducker active and music ducked")
    samples, missed, changes_seen, started_ducked, in_a_row, late_ducked = [], 0, {}, 0, 0, 0
    for n in range(args.rounds):
        if in_a_row >= 3:
            print(f"note stopped after round {n - 1}: {in_a_row} rounds in a row without the ducked volume", flush=True)
            break
        start = watch.mark()
        music.stdin.write(f"{n}\n")
        found = watch.wait(lambda l: l[0] == "info" and l[6] == str(n), start, f"stream {n}")
        if found is None:
            sys.exit(f"round {n}: paplay's stream never appeared")
        info = watch.line(found)
        index = info[2]
        if info[3] == DUCKED:
            started_ducked += 1
        new = watch.wait(lambda l: l[0] == "event" and l[2] == "new" and l[3] == index, start, "new")
        t_new = watch.line(new)[1]
        shown = volume_shown(watch, index, DUCKED, start, f"stream {n} ducked")
        if shown is None:
            missed += 1
            in_a_row += 1
            print(f"note round {n}: stream #{index} not ducked within {WAIT} s (pactl: {pactl_volume(index)})", flush=True)
        else:
            t_change, count = shown
            checked = pactl_volume(index)
            if checked is None or checked[0] != DUCKED:
                missed += 1
                in_a_row += 1
                # Stuck, or only late (the server put a volume back over the duck and the
                # daemon ducked it again after the check)? Half a second later tells.
                time.sleep(0.5)
                later = pactl_volume(index)
                if later is not None and later[0] == DUCKED:
                    late_ducked += 1
                print(f"note round {n}: pactl shows #{index} at {checked}, not {DUCKED} "
                      f"(0.5 s later: {later})", flush=True)
            else:
                in_a_row = 0
                samples.append((t_change - t_new) * 1000)
                changes_seen[count] = changes_seen.get(count, 0) + 1
                print(f"sample new-to-ducked {samples[-1]:.2f}", flush=True)
        music.stdin.write("stop\n")
        if watch.wait(lambda l: l[0] == "event" and l[2] == "remove" and l[3] == index, start, "remove") is None:
            sys.exit(f"round {n}: stream #{index} did not go away")
    summary("new-to-ducked", samples, missed)
    print(f"note change events of the stream up to the ducked one: {dict(sorted(changes_seen.items()))}; "
          f"streams that appeared already at the ducked volume: {started_ducked}; "
          f"missed but ducked 0.5 s later: {late_ducked}")
    ducker.terminate()
    music.stdin.close()
    music.terminate()
    ducker.wait(10)
    music.wait(10)


def activate_rounds(args, mprisd, watch, duck_client):
    start = watch.mark()
    music = subprocess.Popen([mprisd, "run", "--category", "playback", "--name", "music", "--",
                              "paplay", "--client-name=bench-music", "--property=mprisd.bench=music", args.tone])
    wait_status(mprisd, lambda d: (session(d, "music") or {}).get("active"), "music's session active")
    found = watch.wait(lambda l: l[0] == "info" and l[6] == "music", start, "music's stream")
    if found is None:
        sys.exit("music's stream never appeared")
    index = watch.line(found)[2]
    client = subprocess.Popen([duck_client], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    if not client.stdout.readline().startswith("registered"):
        sys.exit("bench-duck-client did not register")
    trips, ends, restores, missed = [], [], [], 0
    for n in range(args.rounds):
        start = watch.mark()
        client.stdin.write("activate\n")
        reply = client.stdout.readline().split()
        if len(reply) != 3 or reply[0] != "activated":
            sys.exit(f"round {n}: bench-duck-client answered {reply}")
        t0, t1 = int(reply[1]) / 1e9, int(reply[2]) / 1e9
        shown = volume_shown(watch, index, DUCKED, start, f"round {n}: music ducked")
        checked = pactl_volume(index) if shown else None
        if shown is None or checked is None or checked[0] != DUCKED:
            missed += 1
            print(f"note round {n}: music #{index} not ducked (pactl: {checked})", flush=True)
        else:
            trips.append((t1 - t0) * 1000)
            ends.append((shown[0] - t0) * 1000)
            print(f"sample activate-call {trips[-1]:.2f}\nsample activate-to-ducked {ends[-1]:.2f}", flush=True)
        start = watch.mark()
        client.stdin.write("deactivate\n")
        reply = client.stdout.readline().split()
        if len(reply) != 3 or reply[0] != "deactivated":
            sys.exit(f"round {n}: bench-duck-client answered {reply}")
        t0 = int(reply[1]) / 1e9
        back = volume_shown(watch, index, NORM, start, f"round {n}: music restored")
        if back is None:
            sys.exit(f"round {n}: music #{index} not restored to {NORM} (pactl: {pactl_volume(index)})")
        restores.append((back[0] - t0) * 1000)
        print(f"sample deactivate-to-restored {restores[-1]:.2f}", flush=True)
    summary("activate-call", trips, missed)
    summary("activate-to-ducked", ends, missed)
    summary("deactivate-to-restored", restores, 0)
    client.stdin.close()
    client.wait(10)
    music.terminate()
    music.wait(10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["stream", "activate"])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--tone", required=True)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--role")
    args = parser.parse_args()
    mprisd = os.path.join(args.bin, "mprisd")
    watch = pulse_watch(os.path.join(args.bin, "bench-pulse-watch"))
    try:
        if args.mode == "stream":
            stream_rounds(args, mprisd, watch)
        else:
            activate_rounds(args, mprisd, watch, os.path.join(args.bin, "bench-duck-client"))
    finally:
        watch.process.terminate()


if __name__ == "__main__":
    main()
