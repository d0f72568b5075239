#!/usr/bin/env python3
"""implicit-rounds.py — the rounds of Benchmarks/implicit-call.sh and implicit-prompt.sh (issue 15),
against a daemon, an audio server and (for calls) an mpv the script started: how long from a
triggering stream's appearance on the server to the daemon's effect on the others.

  implicit-rounds.py call      --bin DIR --tone FILE --rounds N (--app NAME | --app NAME --role ROLE) [--mpv] [--fresh-music]
  implicit-rounds.py heuristic --bin DIR --tone FILE --rounds N [--mpv] [--fresh-music]
  implicit-rounds.py prompt    --bin DIR --tone FILE --rounds N

Music: a `paplay --client-name=jukebox` started here (no role, no MPRIS: an unknown app that
mixes), playing throughout; with --fresh-music a new one before each round, named
`jukebox-<pid>-<n>` (a restore key of its own), once the daemon's status shows its implicit
session active (--music-name NAME: every one named NAME, one restore key for all). The trigger: `bench-implicit-trigger` (one process, a libpulse client
per app, streams opened and closed on command). Every server-side timestamp comes from one
`bench-implicit-watch` (libpulse, subscribed to sink inputs and source outputs): t0 is the
triggering stream's `new` event; the effect is the `change` event of the music's stream that made
the mute (or the ducked volume) visible: the last `change` of that stream read before the first
info reply showing it (events and replies share one connection, in order). Each effect is checked
once more with `pactl list sink-inputs` (a miss notes the music's states the watcher saw). For
calls and prompts, `trigger-changes-before-effect` counts the triggering stream's own `change`
events before the effect and `trigger-last-change-before-effect` says when the last came (ms
from its `new`): pipewire-pulse completes a new stream in steps.

call:      a capture stream of APP (name table) or with media.role=ROLE appears → music muted;
           with --mpv, also → mpv's PropertiesChanged PlaybackStatus=Paused on the bus, and the
           daemon's Pause call to mpv (both from `dbus-monitor`, whose receive times are
           CLOCK_REALTIME, turned into CLOCK_MONOTONIC with the offset between the two clocks
           read at the start). Then the capture closes: music unmuted, mpv Playing, next round.
heuristic: "Chromium" playback opens, then "Chromium input" capture (same process): timed from
           the capture's appearance + the minimum time (3 s) to the mute (and mpv's Paused).
prompt:    a playback stream with media.role=navigation appears → music's volume lowered (timed to
           the change showing the ducked volume, 30 % of the user's); then it closes: volume back.

Prints `sample NAME MS` lines, `summary NAME n=.. median=.. p90=.. p99=.. max=.. missed=..` and
`note ...` lines; exits non-zero when the setup fails.
"""
import argparse, json, math, os, re, subprocess, sys, threading, time

from benchlines import WAIT, Lines

NORM = 65536
DUCKED = round(NORM * 0.3)   # the daemon's duck on the user's volume (100 %)
HEURISTIC_MINIMUM = 3.0      # CallTiming.standard.heuristicMinimum


def parse_watch(raw):
    part = raw.split(" ")
    if part[0] == "event":   # event ns in|out new|change|remove index
        return ("event", int(part[1]) / 1e9, part[2], part[3], int(part[4]))
    if part[0] == "info":    # info ns in|out index volume mute corked app...
        return ("info", int(part[1]) / 1e9, part[2], int(part[3]), int(part[4]), part[5] == "1", part[6] == "1",
                " ".join(part[7:]))
    return (part[0],) if part[0] else None


class Monitor(Lines):
    """`dbus-monitor` on the private bus: the Pause/Play calls to mpv and mpv's PlaybackStatus
    announcements, with their receive times moved to CLOCK_MONOTONIC."""

    HEADER = re.compile(r"^(signal|method call|method return|error) time=(\d+)\.(\d+) sender=(\S+) -> destination=(\S+).*member=(\w+)")

    def __init__(self, mpv_unique):
        self.offset = time.time() - time.monotonic()
        self.mpv = mpv_unique
        self.block = None
        super().__init__(["stdbuf", "-oL", "dbus-monitor", "--session",
                          "type='method_call',interface='org.mpris.MediaPlayer2.Player'",
                          "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"],
                         self.parse_line, "dbus-monitor")

    def parse_line(self, raw):
        header = self.HEADER.match(raw)
        if header:
            kind, sec, usec, sender, destination, member = header.groups()
            at = int(sec) + int(usec) / 10 ** len(usec) - self.offset
            self.block = {"kind": kind, "at": at, "sender": sender, "member": member, "status": False}
            if kind == "method call" and member in ("Pause", "Play", "PlayPause", "Stop"):
                return ("call", at, member, destination)
            return None
        block = self.block
        if block is None or block["member"] != "PropertiesChanged" or block["sender"] != self.mpv:
            return None
        if 'string "PlaybackStatus"' in raw:
            block["status"] = True
            return None
        status = re.search(r'variant\s+string "(\w+)"', raw)
        if block["status"] and status:
            block["status"] = False
            return ("status", block["at"], status.group(1))
        return None


def pactl_state(index):
    """(largest channel volume, mute) of sink input `index` as `pactl list sink-inputs` shows it."""
    out = subprocess.run(["timeout", "10", "pactl", "-f", "json", "list", "sink-inputs"],
                         capture_output=True, text=True, check=True).stdout
    for stream in json.loads(out):
        if stream.get("index") == index:
            return max(int(ch["value"]) for ch in stream.get("volume", {}).values()), stream.get("mute")
    return None


def shown(watch, index, start, shows, what):
    """Time of the `change` event of sink input `index` that made `shows(info)` visible (the last
    change before the first reply showing it), from `start`; None on timeout."""
    after_change = [False]

    def visible(line):
        if line[0] == "event" and line[2] == "in" and line[4] == index and line[3] == "change":
            after_change[0] = True
        return line[0] == "info" and line[2] == "in" and line[3] == index and after_change[0] and shows(line)

    found = watch.wait(visible, start, what)
    if found is None:
        return None
    changes = [l for l in watch.between(start, found) if l[0] == "event" and l[2] == "in" and l[4] == index and l[3] == "change"]
    return changes[-1][1]


def summary(name, samples, missed):
    if not samples:
        print(f"summary {name} n=0 missed={missed}", flush=True)
        return
    ordered = sorted(samples)
    rank = lambda q: ordered[max(0, math.ceil(q * len(ordered)) - 1)]  # nearest rank
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    print(f"summary {name} n={len(samples)} median={median:.2f} p90={rank(0.90):.2f} p99={rank(0.99):.2f} "
          f"max={ordered[-1]:.2f} missed={missed}", flush=True)


def mpv_owner():
    out = subprocess.run(["timeout", "10", "dbus-send", "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus",
                          "/", "org.freedesktop.DBus.GetNameOwner", "string:org.mpris.MediaPlayer2.mpv"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"mpv is not on the bus: {out.stderr.strip()}")
    return out.stdout.split()[-1]


class Bench:
    def __init__(self, args):
        self.args = args
        self.watch = Lines([os.path.join(args.bin, "bench-implicit-watch")], parse_watch, "bench-implicit-watch")
        if self.watch.wait(lambda l: l[0] == "ready", 0, "bench-implicit-watch subscribed") is None:
            sys.exit("bench-implicit-watch did not subscribe")
        self.monitor = None
        if args.mpv:
            self.monitor = Monitor(mpv_owner())
            time.sleep(0.5)  # dbus-monitor has no "ready" line; its match rules are in place by then
        self.music = None
        self.index = None
        self.generation = 0
        self.start_music()
        self.samples = {}
        self.missed = {}
        self.notes = []

    def start_music(self):
        """(Re)starts the music: a new paplay, its stream at the user's volume, and its implicit
        session active in the daemon's status (so that it is one a call interrupts)."""
        if self.music is not None:
            start = self.watch.mark()
            self.music.terminate()
            self.music.wait(10)
            if self.watch.wait(lambda l: l[0] == "event" and l[2] == "in" and l[3] == "remove" and l[4] == self.index,
                               start, "the old music gone") is None:
                sys.exit("the old music's stream did not go away")
        start = self.watch.mark()
        old = self.index
        # A fresh music stream has a name (and so a restore key) of its own: on this build a new
        # stream of a key whose previous stream ended soon after an unmute is unmuted again if a
        # call mutes it in its first second (BENCHMARKS.md, issue 15).
        self.generation += 1
        name = self.args.music_name or (f"jukebox-{os.getpid()}-{self.generation}" if self.args.fresh_music else "jukebox")
        self.music = subprocess.Popen(["paplay", f"--client-name={name}", self.args.tone])
        found = self.watch.wait(lambda l: l[0] == "info" and l[2] == "in" and l[7] == name and l[3] != old,
                                start, "the music's stream")
        if found is None:
            sys.exit("the music's stream never appeared")
        self.index = self.watch.line(found)[3]
        # pipewire-pulse shows a new stream at volume 0 for a moment (before its first changes).
        deadline = time.monotonic() + WAIT
        while (state := pactl_state(self.index)) != (NORM, False) and time.monotonic() < deadline:
            time.sleep(0.05)
        if state != (NORM, False):
            sys.exit(f"the music is at {state}, not at ({NORM}, unmuted)")
        mprisd = os.path.join(self.args.bin, "mprisd")
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            out = subprocess.run(["timeout", "10", mprisd, "status", "--json"], capture_output=True, text=True)
            apps = (json.loads(out.stdout).get("apps") or []) if out.returncode == 0 else []
            if any(a.get("pid") == self.music.pid and a.get("present") and "active" in a.get("state", "") for a in apps):
                return
            time.sleep(0.05)
        sys.exit(f"the music's implicit session is not active in the status: {out.stdout}")

    def sample(self, name, ms):
        self.samples.setdefault(name, []).append(ms)
        print(f"sample {name} {ms:.2f}", flush=True)

    def miss(self, name, why):
        self.missed[name] = self.missed.get(name, 0) + 1
        print(f"note {why}", flush=True)

    def appeared(self, start, facility, what):
        """(time, index) of the first `new` event of `facility` from `start` other than the music's."""
        found = self.watch.wait(lambda l: l[0] == "event" and l[2] == facility and l[3] == "new" and
                                (facility != "in" or l[4] != self.index), start, what)
        if found is None:
            sys.exit(f"{what} never appeared on the server")
        line = self.watch.line(found)
        return line[1], line[4]

    def trigger_changes(self, start, facility, index, t0, effect):
        """Samples how many `change` events of the triggering stream the server sent before the
        effect, and when the last of them came (ms from its `new`): pipewire-pulse completes a new
        stream in several steps, and the daemon can only classify it once its properties are in."""
        changes = [l[1] for l in self.watch.between(start, self.watch.mark())
                   if l[0] == "event" and l[2] == facility and l[4] == index and l[3] == "change" and l[1] <= effect]
        self.sample("trigger-changes-before-effect", len(changes))
        self.sample("trigger-last-change-before-effect", (changes[-1] - t0) * 1000 if changes else 0.0)

    def bus_effect(self, name, bus_start, t0, status="Paused"):
        """mpv's announcement of `status` after `bus_start`: samples t0 → the daemon's call, t0 → the
        announcement and call → announcement (mpv's own reaction)."""
        found = self.monitor.wait(lambda l: l[0] == "status" and l[2] == status, bus_start, f"mpv {status}")
        if found is None:
            self.miss(f"{name}-to-mpv-{status.lower()}", f"mpv not {status} within {WAIT} s")
            return
        announced = self.monitor.line(found)[1]
        calls = [l for l in self.monitor.between(bus_start, found) if l[0] == "call"]
        self.sample(f"{name}-to-mpv-{status.lower()}", (announced - t0) * 1000)
        if calls:
            self.sample(f"{name}-to-pause-call", (calls[-1][1] - t0) * 1000)
            self.sample("mpv-reaction", (announced - calls[-1][1]) * 1000)
            if len(calls) > 1:
                self.notes.append(f"{len(calls)} calls to mpv before it announced {status}: {[c[2] for c in calls]}")

    def wait_back(self, what):
        """After the trigger closed: the music back (unmuted / at the user's volume), mpv Playing."""
        position = self.watch.mark()
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            state = pactl_state(self.index)
            if state == (NORM, False):
                break
            self.watch.wait(lambda l: l[0] == "info" and l[3] == self.index, position, what, timeout=0.5)
            position = self.watch.mark()
        else:
            sys.exit(f"the music was not back after {what}: {pactl_state(self.index)}")
        if self.monitor is not None:
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline and self.mpv_status() != "Playing":
                time.sleep(0.05)
            if self.mpv_status() != "Playing":
                sys.exit(f"mpv did not play again after {what}: {self.mpv_status()}")

    def mpv_status(self):
        out = subprocess.run(["timeout", "10", "dbus-send", "--session", "--print-reply=literal",
                              "--dest=org.mpris.MediaPlayer2.mpv", "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.Get",
                              "string:org.mpris.MediaPlayer2.Player", "string:PlaybackStatus"], capture_output=True, text=True)
        return out.stdout.split()[-1] if out.returncode == 0 and out.stdout.split() else None

    def muted_round(self, name, trigger, open_commands, offset):
        """Opens the trigger's streams; the last command's capture is t0 (+ offset); times the mute.
        With --fresh-music, a new music stream first (see `call_rounds`)."""
        if self.args.fresh_music:
            self.start_music()
        start = self.watch.mark()
        bus_start = self.monitor.mark() if self.monitor else 0
        for i, command in enumerate(open_commands):
            mark = self.watch.mark()
            trigger.send(command)
            if i < len(open_commands) - 1:
                self.appeared(mark, "in", "the app's playback")
        t0, capture = self.appeared(start, "out", "the capture stream")
        t0 += offset
        muted = shown(self.watch, self.index, start, lambda l: l[5], "music muted")
        if muted is None:
            self.miss(f"{name}-to-muted", f"music not muted within {WAIT} s (pactl: {pactl_state(self.index)})")
        else:
            checked = pactl_state(self.index)
            if checked is None or not checked[1]:
                time.sleep(0.5)
                history = [(round((l[1] - t0) * 1000, 1), "muted" if l[5] else "unmuted", l[4])
                           for l in self.watch.between(start, self.watch.mark()) if l[0] == "info" and l[3] == self.index]
                self.miss(f"{name}-to-muted", f"pactl shows music at {checked}, not muted; 0.5 s later "
                          f"{pactl_state(self.index)}; the music's states seen (ms from t0): {history}")
            else:
                self.sample(f"{name}-to-muted", (muted - t0) * 1000)
                if offset == 0.0:
                    self.trigger_changes(start, "out", capture, t0, muted)
        if self.monitor is not None:
            self.bus_effect(name, bus_start, t0)

    def stop(self):
        self.music.terminate()
        self.music.wait(10)
        if self.monitor is not None:
            self.monitor.stop()
        self.watch.stop()

    def report(self, names):
        for name in names:
            summary(name, self.samples.get(name, []), self.missed.get(name, 0))
        if self.monitor is not None:
            drift = (time.time() - time.monotonic()) - self.monitor.offset
            print(f"note CLOCK_REALTIME − CLOCK_MONOTONIC moved {drift * 1000:.3f} ms during the rounds", flush=True)
        for note in sorted(set(self.notes)):
            print(f"note {note}", flush=True)


def trigger(args, specs):
    process = Lines([os.path.join(args.bin, "bench-implicit-trigger")] + specs,
                    lambda raw: tuple(raw.split()) or None, "bench-implicit-trigger")
    if process.wait(lambda l: l[0] == "ready", 0, "bench-implicit-trigger connected") is None:
        sys.exit("bench-implicit-trigger did not connect")
    return process


def call_rounds(bench, args):
    spec = f"capture,{args.app}" + (f",{args.role}" if args.role else "")
    app = trigger(args, [spec])
    for n in range(args.rounds):
        bench.muted_round("capture", app, ["open 0"], 0.0)
        app.send("close 0")
        bench.wait_back(f"round {n}'s call")
        time.sleep(0.2)  # the call's session ends and the resume settles before the next capture
    app.stop()
    bench.report(["capture-to-muted", "capture-to-pause-call", "capture-to-mpv-paused", "mpv-reaction",
                  "trigger-changes-before-effect", "trigger-last-change-before-effect"])


def heuristic_rounds(bench, args):
    app = trigger(args, ["playback,Chromium", "capture,Chromium input"])
    for n in range(args.rounds):
        bench.muted_round("held", app, ["open 0", "open 1"], HEURISTIC_MINIMUM)
        app.send("close 1")
        app.send("close 0")
        bench.wait_back(f"round {n}'s browser call")
        time.sleep(0.2)
    app.stop()
    bench.report(["held-to-muted", "held-to-pause-call", "held-to-mpv-paused", "mpv-reaction"])


def prompt_rounds(bench, args):
    app = trigger(args, ["playback,maps,navigation"])
    for n in range(args.rounds):
        start = bench.watch.mark()
        app.send("open 0")
        t0, prompt = bench.appeared(start, "in", "the prompt's stream")
        ducked = shown(bench.watch, bench.index, start, lambda l: l[4] < NORM, "music ducked")
        if ducked is None:
            bench.miss("prompt-to-ducked", f"music not ducked within {WAIT} s (pactl: {pactl_state(bench.index)})")
        else:
            checked = pactl_state(bench.index)
            if checked is None or checked[0] != DUCKED or checked[1]:
                bench.miss("prompt-to-ducked", f"pactl shows music at {checked}, not ({DUCKED}, unmuted)")
            else:
                bench.sample("prompt-to-ducked", (ducked - t0) * 1000)
                bench.trigger_changes(start, "in", prompt, t0, ducked)
        start = bench.watch.mark()
        app.send("close 0")
        back = shown(bench.watch, bench.index, start, lambda l: l[4] == NORM, "music back")
        removed = bench.watch.wait(lambda l: l[0] == "event" and l[2] == "in" and l[3] == "remove" and l[4] != bench.index,
                                   start, "the prompt's stream gone")
        if back is not None and removed is not None:
            bench.sample("prompt-end-to-restored", (back - bench.watch.line(removed)[1]) * 1000)
        bench.wait_back(f"round {n}'s prompt")
        time.sleep(0.2)
    app.stop()
    bench.report(["prompt-to-ducked", "prompt-end-to-restored", "trigger-changes-before-effect",
                  "trigger-last-change-before-effect"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["call", "heuristic", "prompt"])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--tone", required=True)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--app", default="ZOOM VoiceEngine")
    parser.add_argument("--role")
    parser.add_argument("--mpv", action="store_true")
    parser.add_argument("--fresh-music", action="store_true",
                        help="a new music stream each round (a music stream is muted by its first call only: see BENCHMARKS.md)")
    parser.add_argument("--music-name", help="the music's client name (default: jukebox, or a new one per fresh stream)")
    args = parser.parse_args()
    bench = Bench(args)
    try:
        {"call": call_rounds, "heuristic": heuristic_rounds, "prompt": prompt_rounds}[args.mode](bench, args)
    finally:
        bench.stop()


if __name__ == "__main__":
    main()
