#!/usr/bin/python3
"""The rounds of Benchmarks/control.sh: exec of a key-binding command -> the player's reaction.

usage: control-rounds.py ROUNDS PLAYER_NAME LABEL=COMMAND... > samples.tsv

For each round, each command in turn (the order rotates every round, so drift in the machine's load
hits all alike): read the player's PlaybackStatus, take t0 (CLOCK_REALTIME, as dbus-monitor's
time=), run the command to its exit, then wait for the player's PropertiesChanged with the other
PlaybackStatus. dbus-monitor (a bus monitor, started first) timestamps the Pause/Play/PlayPause
call reaching the player's unique name and the signal. Prints one line per sample:
LABEL  call_ms  signal_ms  exit_ms  (exec -> the call to the player, -> its PropertiesChanged,
-> the command's exit). Between samples a random 250-350 ms pause, so that the player's own
signal tick (mpv-mpris batches) is met at every phase. A sample whose signal does not come within 5 s is printed as "missed".
"""
import random
import subprocess
import sys
import threading
import time

rounds = int(sys.argv[1])
player = sys.argv[2]
commands = [arg.split("=", 1) for arg in sys.argv[3:]]


def owner_of(name):
    out = subprocess.run(["dbus-send", "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus",
                          "/", "org.freedesktop.DBus.GetNameOwner", "string:" + name],
                         capture_output=True, text=True, check=True).stdout
    return out.split()[-1]


def status_of(name):
    out = subprocess.run(["dbus-send", "--session", "--print-reply=literal", "--dest=" + name,
                          "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.Get",
                          "string:org.mpris.MediaPlayer2.Player", "string:PlaybackStatus"],
                         capture_output=True, text=True, check=True).stdout
    return out.split()[-1]


unique = owner_of(player)
events = []  # (time, kind, detail)
cond = threading.Condition()
monitor = subprocess.Popen(
    ["dbus-monitor", "--session",
     "type='method_call',interface='org.mpris.MediaPlayer2.Player',destination='%s'" % unique,
     "type='signal',sender='%s',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'" % unique],
    stdout=subprocess.PIPE, text=True, bufsize=1)


def read_monitor():
    header = None
    want_status = False
    for line in monitor.stdout:
        if line.startswith(("method call ", "signal ", "method return ", "error ")):
            want_status = False
            fields = dict(f.split("=", 1) for f in line.replace(";", "").split() if "=" in f)
            header = (float(fields.get("time", "0")), line.split(" time=")[0], fields.get("member", ""))
            if header[1] == "method call":
                with cond:
                    events.append((header[0], "call", header[2]))
                    cond.notify_all()
            continue
        if header and header[1] == "signal":
            if 'string "PlaybackStatus"' in line:
                want_status = True
            elif want_status and "variant" in line and "string" in line:
                status = line.split('"')[1]
                with cond:
                    events.append((header[0], "signal", status))
                    cond.notify_all()
                want_status = False


threading.Thread(target=read_monitor, daemon=True).start()
time.sleep(1.0)  # the monitor's match rules are in place

for r in range(rounds):
    order = commands[r % len(commands):] + commands[:r % len(commands)]
    for label, command in order:
        before = status_of(player)
        expected = "Paused" if before == "Playing" else "Playing"
        t0 = time.time()
        result = subprocess.run(command, shell=True, capture_output=True, text=True)
        t_exit = time.time()
        if result.returncode != 0:
            print("%s\tfailed\t%s" % (label, (result.stderr or result.stdout).strip().replace("\n", " ")), flush=True)
            continue
        deadline = time.time() + 5
        call = signal = None
        with cond:
            while time.time() < deadline:
                for when, kind, detail in events:
                    if when < t0:
                        continue
                    if kind == "call" and call is None:
                        call = when
                    if kind == "signal" and detail == expected and signal is None:
                        signal = when
                if signal is not None:
                    break
                cond.wait(0.05)
            del events[:]
        if signal is None:
            print("%s\tmissed" % label, flush=True)
        else:
            print("%s\t%.3f\t%.3f\t%.3f" % (label, ((call or signal) - t0) * 1000, (signal - t0) * 1000,
                                            (t_exit - t0) * 1000), flush=True)
        # mpv-mpris announces its changes on a tick of its own: a fixed pause here would lock
        # every sample to the same phase of that tick (all commands then look alike). A random
        # 250-350 ms spreads the phase; the player is settled either way.
        time.sleep(0.25 + random.random() * 0.1)

monitor.terminate()
