#!/usr/bin/python3
"""The rounds of Benchmarks/static-stdlib.sh: how soon a freshly started program is useful.

usage: startup-rounds.py name ROUNDS LABEL=COMMAND... > samples.tsv
       startup-rounds.py exit ROUNDS LABEL=COMMAND... > samples.tsv

name: COMMAND holds {name}; each sample runs it with a fresh name N (an MPRIS player such as
`mprisd play --name {name} ...`) and measures exec -> org.mpris.MediaPlayer2.N owned on the bus, as
timestamped by dbus-monitor (a bus monitor, started first, matching NameOwnerChanged; its time= is
CLOCK_REALTIME, as is t0 taken just before the spawn). The player is then stopped (SIGTERM) and
waited for before the next sample.
exit: each sample runs COMMAND to its exit and measures exec -> exit (status 0 required).

The commands take turns, the order rotating every round, so drift in the machine's load hits all
alike; a random 150-250 ms pause between samples. Prints one line per sample: LABEL  ms, or
LABEL  failed  REASON.
"""
import random
import signal
import subprocess
import sys
import threading
import time

mode = sys.argv[1]
rounds = int(sys.argv[2])
commands = [arg.split("=", 1) for arg in sys.argv[3:]]
if mode not in ("name", "exit"):
    sys.exit("startup-rounds.py: mode is name or exit, not %r" % mode)

owned = {}  # bus name -> the time dbus-monitor saw it get an owner
cond = threading.Condition()


def read_monitor(monitor):
    header_time = None
    strings = []
    for line in monitor.stdout:
        if line.startswith(("signal ", "method call ", "method return ", "error ")):
            fields = dict(f.split("=", 1) for f in line.replace(";", "").split() if "=" in f)
            header_time = float(fields.get("time", "0")) if fields.get("member") == "NameOwnerChanged" else None
            strings = []
            continue
        if header_time is not None and line.strip().startswith("string "):
            strings.append(line.split('"')[1] if '"' in line else "")
            if len(strings) == 3 and strings[2]:
                with cond:
                    owned.setdefault(strings[0], header_time)
                    cond.notify_all()


monitor = None
if mode == "name":
    monitor = subprocess.Popen(
        ["dbus-monitor", "--session",
         "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'"],
        stdout=subprocess.PIPE, text=True, bufsize=1)
    threading.Thread(target=read_monitor, args=(monitor,), daemon=True).start()
    time.sleep(1.0)  # the monitor's match rule is in place

sample = 0
for r in range(rounds):
    order = commands[r % len(commands):] + commands[:r % len(commands)]
    for label, command in order:
        sample += 1
        if mode == "exit":
            t0 = time.time()
            result = subprocess.run(command, shell=True, capture_output=True, text=True)
            elapsed = (time.time() - t0) * 1000
            if result.returncode != 0:
                print("%s\tfailed\t%s" % (label, (result.stderr or result.stdout).strip().replace("\n", " ")[:200]), flush=True)
            else:
                print("%s\t%.3f" % (label, elapsed), flush=True)
        else:
            name = "bench%d" % sample
            bus_name = "org.mpris.MediaPlayer2." + name
            t0 = time.time()
            player = subprocess.Popen("exec " + command.format(name=name), shell=True,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            deadline = time.time() + 20
            seen = None
            with cond:
                while time.time() < deadline and seen is None:
                    seen = owned.get(bus_name)
                    if seen is None:
                        if player.poll() is not None:
                            break
                        cond.wait(0.05)
            if seen is None:
                player.kill()
                print("%s\tfailed\t%s" % (label, "no %s within 20 s (exit %s)" % (bus_name, player.poll())), flush=True)
            else:
                print("%s\t%.3f" % (label, (seen - t0) * 1000), flush=True)
            player.send_signal(signal.SIGTERM)
            try:
                player.wait(timeout=10)
            except subprocess.TimeoutExpired:
                player.kill()
                player.wait()
        time.sleep(0.15 + random.random() * 0.1)

if monitor:
    monitor.terminate()
