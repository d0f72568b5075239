#!/usr/bin/python3
"""The tests' one fake MPRIS player: it keeps a PlaybackStatus and prints every call it gets, so a
test sees exactly what the daemon or `mprisd control` sent; its options make it fail the ways real
players fail.

usage: fake_player.py NAME STATUS [toggling] [quiet] [stream=FILE] [role=ROLE] [teardown]
                      [volume=readonly|ignored|missing]
  STATUS       the PlaybackStatus it starts with (Playing, Paused, Stopped)
  toggling     Pause toggles (Paused <-> Playing), as tidal-hifi's did (tidal-hifi#800)
  quiet        status changes are not announced (no PropertiesChanged): what a player that
               batches its signals looks like between two batches
  stream=FILE  its audio: a `paplay` child playing FILE (on $PULSE_SINK, else the default sink),
               whatever the status says — so that the audio server, and whoever pairs streams
               with players by process, sees a stream of this player
  role=ROLE    the stream's media.role (paplay --property=media.role=ROLE)
  teardown     Pause ends the stream and Play starts a new one, as Firefox tears its stream down
               on pause; prints "stream started" / "stream ended"
  volume=…     its Volume cannot duck it: readonly (Set fails with PropertyReadOnly), ignored
               (Set is accepted and does nothing, as Spotify's), missing (no Volume property)
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
    def __init__(self, bus, status, toggling, quiet, stream=None, role=None, teardown=False, volume_mode=None):
        super().__init__(bus, "/org/mpris/MediaPlayer2")
        self.status = status
        self.toggling = toggling
        self.quiet = quiet
        self.volume = 0.5
        self.stream, self.role, self.teardown, self.volume_mode = stream, role, teardown, volume_mode
        self.child = None
        if stream is not None:
            self.start_stream()

    def start_stream(self):
        role = ["--property=media.role=" + self.role] if self.role else []
        self.child = subprocess.Popen(["paplay"] + role + [self.stream])
        if self.teardown:
            print("stream started", flush=True)

    def end_stream(self):
        child, self.child = self.child, None
        if child is not None and child.poll() is None:
            child.terminate()
            child.wait()
            if self.teardown:
                print("stream ended", flush=True)

    def player_props(self):
        props = {
            "PlaybackStatus": dbus.String(self.status),
            "CanPlay": dbus.Boolean(True), "CanPause": dbus.Boolean(True),
            "CanControl": dbus.Boolean(True), "CanSeek": dbus.Boolean(True),
            "CanGoNext": dbus.Boolean(True), "CanGoPrevious": dbus.Boolean(True),
            "Rate": dbus.Double(1.0), "Volume": dbus.Double(self.volume),
            "Metadata": dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/mprisd/test/track/1")}, signature="sv"),
        }
        if self.volume_mode == "missing":
            del props["Volume"]
        return props

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
        if name == "Volume" and self.volume_mode == "ignored":
            self.log("Set Volume %.2f (ignored)" % float(value))
            return
        if name == "Volume" and self.volume_mode == "readonly":
            raise dbus.exceptions.DBusException("Volume is read-only",
                                                name="org.freedesktop.DBus.Error.PropertyReadOnly")
        if name != "Volume" or self.volume_mode == "missing":
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
        if self.teardown and self.status == "Playing":
            self.end_stream()
        if self.toggling:
            self.set_status("Paused" if self.status == "Playing" else "Playing")
        else:
            self.set_status("Paused")

    @dbus.service.method(PLAYER)
    def Play(self):
        self.log("Play")
        if self.teardown and self.child is None:
            self.start_stream()
        self.set_status("Playing")

    @dbus.service.method(PLAYER)
    def PlayPause(self):
        self.log("PlayPause")
        if self.teardown:
            if self.status == "Playing":
                self.end_stream()
            elif self.child is None:
                self.start_stream()
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
    options = sys.argv[3:]

    def value(key):
        found = [arg[len(key) + 1:] for arg in options if arg.startswith(key + "=")]
        return found[0] if found else None

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    player = Player(bus, status, "toggling" in options, "quiet" in options, stream=value("stream"), role=value("role"),
                    teardown="teardown" in options, volume_mode=value("volume"))
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 15, lambda: (loop.quit(), False)[1])
    _ = dbus.service.BusName(ROOT + "." + name, bus)
    print("ready", flush=True)
    try:
        loop.run()
    finally:
        player.end_stream()


if __name__ == "__main__":
    main()
