#!/usr/bin/python3
"""A tiny MPRIS player for the arbiter's tests: it only keeps a PlaybackStatus and prints every
call it gets, so a test sees exactly what `mprisd control` sent.

usage: fake_player.py NAME STATUS [toggling] [quiet] [stream=FILE]
  STATUS       the PlaybackStatus it starts with (Playing, Paused, Stopped)
  toggling     Pause toggles (Paused <-> Playing), as tidal-hifi's did (tidal-hifi#800)
  quiet        status changes are not announced (no PropertiesChanged): what a player that
               batches its signals looks like between two batches
  stream=FILE  its audio: a `paplay` child playing FILE (on $PULSE_SINK, else the default sink)
               for its whole life, whatever the status says — so that the audio server, and
               whoever pairs streams with players by process, sees a stream of this player
Prints "ready" once its name is owned, then one line per call: "call Pause", "call Seek 5000000",
"call SetPosition /org/mprisd/test/track/1 30000000", "call Set Volume 0.55". Exits on SIGTERM.
"""
import subprocess
import sys

import dbus
import dbus.service
import dbus.mainloop.glib
from gi.repository import GLib

ROOT = "org.mpris.MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
PROPS = "org.freedesktop.DBus.Properties"


class Player(dbus.service.Object):
    def __init__(self, bus, status, toggling, quiet):
        super().__init__(bus, "/org/mpris/MediaPlayer2")
        self.status = status
        self.toggling = toggling
        self.quiet = quiet
        self.volume = 0.5

    def player_props(self):
        return {
            "PlaybackStatus": dbus.String(self.status),
            "CanPlay": dbus.Boolean(True), "CanPause": dbus.Boolean(True),
            "CanControl": dbus.Boolean(True), "CanSeek": dbus.Boolean(True),
            "CanGoNext": dbus.Boolean(True), "CanGoPrevious": dbus.Boolean(True),
            "Rate": dbus.Double(1.0), "Volume": dbus.Double(self.volume),
            "Metadata": dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/mprisd/test/track/1")}, signature="sv"),
        }

    def log(self, text):
        print("call " + text, flush=True)

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        props = self.player_props() if interface == PLAYER else {"Identity": dbus.String("fake player")}
        if name not in props:
            raise dbus.exceptions.DBusException("no such property " + name,
                                                name="org.freedesktop.DBus.Error.UnknownProperty")
        return props[name]

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        if interface == PLAYER:
            return dbus.Dictionary(self.player_props(), signature="sv")
        return dbus.Dictionary({"Identity": dbus.String("fake player")}, signature="sv")

    @dbus.service.method(PROPS, in_signature="ssv")
    def Set(self, interface, name, value):
        if name != "Volume":
            raise dbus.exceptions.DBusException("no such property " + name,
                                                name="org.freedesktop.DBus.Error.UnknownProperty")
        self.volume = float(value)
        self.log("Set Volume %.2f" % self.volume)
        self.PropertiesChanged(PLAYER, {"Volume": dbus.Double(self.volume)}, [])

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def set_status(self, status):
        if status != self.status:
            self.status = status
            if not self.quiet:
                self.PropertiesChanged(PLAYER, {"PlaybackStatus": dbus.String(status)}, [])

    @dbus.service.method(PLAYER)
    def Pause(self):
        self.log("Pause")
        if self.toggling:
            self.set_status("Paused" if self.status == "Playing" else "Playing")
        else:
            self.set_status("Paused")

    @dbus.service.method(PLAYER)
    def Play(self):
        self.log("Play")
        self.set_status("Playing")

    @dbus.service.method(PLAYER)
    def PlayPause(self):
        self.log("PlayPause")
        self.set_status("Paused" if self.status == "Playing" else "Playing")

    @dbus.service.method(PLAYER)
    def Stop(self):
        self.log("Stop")
        self.set_status("Stopped")

    @dbus.service.method(PLAYER)
    def Next(self):
        self.log("Next")

    @dbus.service.method(PLAYER)
    def Previous(self):
        self.log("Previous")

    @dbus.service.method(PLAYER, in_signature="x")
    def Seek(self, offset):
        self.log("Seek %d" % offset)

    @dbus.service.method(PLAYER, in_signature="ox")
    def SetPosition(self, track, position):
        self.log("SetPosition %s %d" % (track, position))

    @dbus.service.method(PLAYER, in_signature="s", out_signature="")
    def Announce(self, status):
        """Not MPRIS: lets a test change the status as the user would (with the signal)."""
        self.status = ""
        self.quiet, quiet = False, self.quiet
        self.set_status(status)
        self.quiet = quiet


def main():
    name, status = sys.argv[1], sys.argv[2]
    toggling = "toggling" in sys.argv[3:]
    quiet = "quiet" in sys.argv[3:]
    streams = [arg[len("stream="):] for arg in sys.argv[3:] if arg.startswith("stream=")]
    child = subprocess.Popen(["paplay", streams[0]]) if streams else None
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    _player = Player(bus, status, toggling, quiet)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 15, lambda: (loop.quit(), False)[1])
    _ = dbus.service.BusName(ROOT + "." + name, bus)
    print("ready", flush=True)
    loop.run()
    if child is not None:
        child.terminate()
        child.wait()


if __name__ == "__main__":
    main()
