"""benchlines — a child program's output lines, parsed and waited on, for the Python benchmark
drivers (audio-decision.py, implicit-rounds.py, pause-device.py). The child runs as the drivers'
measuring instrument (bench-pulse-watch, bench-implicit-watch, dbus-monitor …); a reader thread
appends each parsed line with its own timestamps, and the drivers wait for a line satisfying a
predicate from a position they marked before acting.
"""
import subprocess, sys, threading, time

WAIT = 10.0   # seconds: any single wait; a round that runs out is "missed"


class Lines:
    """A child's parsed output lines, with a condition to wait on."""

    def __init__(self, argv, parse, name):
        self.name = name
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines = []
        self.cv = threading.Condition()
        self.parse = parse
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.process.stdout:
            line = self.parse(raw.rstrip("\n"))
            if line is None:
                continue
            with self.cv:
                self.lines.append(line)
                self.cv.notify_all()
        with self.cv:
            self.lines.append(("eof",))
            self.cv.notify_all()

    def mark(self):
        with self.cv:
            return len(self.lines)

    def wait(self, predicate, start, what, timeout=WAIT):
        """The position of the first line from `start` satisfying predicate; None on timeout."""
        deadline = time.monotonic() + timeout
        position = start
        with self.cv:
            while True:
                while position < len(self.lines):
                    if self.lines[position][0] == "eof":
                        sys.exit(f"{self.name} ended while waiting for {what}")
                    if predicate(self.lines[position]):
                        return position
                    position += 1
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cv.wait(left)

    def line(self, position):
        with self.cv:
            return self.lines[position]

    def between(self, start, end):
        with self.cv:
            return self.lines[start:end]

    def send(self, text):
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def stop(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def parse_pulse_watch(raw):
    """A line of bench-pulse-watch (Benchmarks/PulseWatch): `event NS new|change|remove INDEX` or
    `info NS INDEX VOLUME MUTE CORKED APP...`, times in seconds; None for an empty line."""
    part = raw.split(" ")
    if part[0] == "event":
        return ("event", int(part[1]) / 1e9, part[2], int(part[3]))
    if part[0] == "info":
        return ("info", int(part[1]) / 1e9, int(part[2]), int(part[3]), part[4] == "1", part[5] == "1",
                " ".join(part[6:]))
    return (part[0],) if part[0] else None


def change_that_showed(watch, index, shows, start, what):
    """For bench-pulse-watch lines: (time of the `change` event of stream `index` after which an
    `info` line satisfying `shows` came, changes of `index` seen until then), from `start`; None on
    timeout. Only replies to queries made after a change count: the first `info` may predate it."""
    after_change = [False]

    def visible(line):
        if line[0] == "event" and line[3] == index and line[2] == "change":
            after_change[0] = True
        return line[0] == "info" and line[2] == index and after_change[0] and shows(line)

    found = watch.wait(visible, start, what)
    if found is None:
        return None
    changes = [l for l in watch.between(start, found) if l[0] == "event" and l[3] == index and l[2] == "change"]
    return changes[-1][1], len(changes)
