#!/usr/bin/python3
"""A tiny MPRIS player whose audio is a paplay child, for the daemon's tests: its Volume
cannot duck it, the way real players fail.

usage: stream_player.py NAME MODE FILE
  MODE readonly: Volume is readable, Set fails (org.freedesktop.DBus.Error.PropertyReadOnly)
  MODE ignored:  Set is accepted and ignored (Spotify)
  MODE missing:  there is no Volume property
  MODE teardown: Volume works (Set is kept), and Pause ends its paplay — its stream goes, as
                 Firefox tears its stream down on pause — and Play starts a new one
Plays FILE with `paplay --property=media.role=music`; otherwise Pause/Play only change
PlaybackStatus. Prints "ready" once its name is owned, and "stream started" / "stream ended" as
paplay starts and is ended in teardown mode. Exits when paplay ends by itself or on SIGTERM.
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
    def __init__(self, bus, mode, path, ended):
        super().__init__(bus, "/org/mpris/MediaPlayer2")
        self.mode = mode
        self.status = "Playing"
        self.volume = 1.0
        self.path = path
        self.ended = ended
        self.child = None
        self.start_stream()

    def start_stream(self):
        self.child = subprocess.Popen(["paplay", "--property=media.role=music", self.path])
        child = self.child
        GLib.child_watch_add(child.pid, lambda *args: self.ended() if self.child is child else None)
        print("stream started", flush=True)

    def end_stream(self):
        child, self.child = self.child, None
        if child is not None and child.poll() is None:
            child.terminate()
            child.wait()
            print("stream ended", flush=True)

    def player_props(self):
        props = {
            "PlaybackStatus": dbus.String(self.status),
            "CanPlay": dbus.Boolean(True), "CanPause": dbus.Boolean(True),
            "CanControl": dbus.Boolean(True), "Rate": dbus.Double(1.0),
            "Metadata": dbus.Dictionary({"mpris:trackid": dbus.ObjectPath("/org/mprisd/test/track/1")}, signature="sv"),
        }
        if self.mode != "missing":
            props["Volume"] = dbus.Double(self.volume)
        return props

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        props = self.player_props() if interface == PLAYER else {"Identity": dbus.String("stream player")}
        if name not in props:
            raise dbus.exceptions.DBusException("no such property " + name,
                                                name="org.freedesktop.DBus.Error.UnknownProperty")
        return props[name]

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        if interface == PLAYER:
            return dbus.Dictionary(self.player_props(), signature="sv")
        return dbus.Dictionary({"Identity": dbus.String("stream player")}, signature="sv")

    @dbus.service.method(PROPS, in_signature="ssv")
    def Set(self, interface, name, value):
        if name == "Volume" and self.mode == "ignored":
            return
        if name == "Volume" and self.mode == "teardown":
            self.volume = float(value)
            self.PropertiesChanged(PLAYER, {"Volume": dbus.Double(self.volume)}, [])
            return
        if name == "Volume" and self.mode == "readonly":
            raise dbus.exceptions.DBusException("Volume is read-only",
                                                name="org.freedesktop.DBus.Error.PropertyReadOnly")
        raise dbus.exceptions.DBusException("no such property " + name,
                                            name="org.freedesktop.DBus.Error.UnknownProperty")

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def set_status(self, status):
        if status != self.status:
            self.status = status
            self.PropertiesChanged(PLAYER, {"PlaybackStatus": dbus.String(status)}, [])

    @dbus.service.method(PLAYER)
    def Pause(self):
        if self.mode == "teardown" and self.status == "Playing":
            self.end_stream()
        self.set_status("Paused")

    @dbus.service.method(PLAYER)
    def Play(self):
        if self.mode == "teardown" and self.child is None:
            self.start_stream()
        self.set_status("Playing")

    @dbus.service.method(PLAYER)
    def PlayPause(self):
        if self.status == "Playing":
            self.Pause()
        else:
            self.Play()


def main():
    name, mode, path = sys.argv[1], sys.argv[2], sys.argv[3]
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    loop = GLib.MainLoop()
    player = Player(bus, mode, path, loop.quit)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, 15, lambda: (loop.quit(), False)[1])
    _ = dbus.service.BusName(ROOT + "." + name, bus)
    print("ready", flush=True)
    try:
        loop.run()
    finally:
        player.end_stream()


if __name__ == "__main__":
    main()
