#!/usr/bin/python3
"""A stand-in for KDE Plasma's notification server (plasmashell cannot run in a test), with the
part of org.freedesktop.Notifications that Do Not Disturb is, as plasma-workspace 5.27 and 6 have
it: the read-only property Inhibited (b), announced by PropertiesChanged; Inhibit(s desktop_entry,
s reason, a{sv} hints) -> u and UnInhibit(u), an inhibition dropped when its holder leaves the bus.
Inhibited is true while the user's switch is on or any inhibition is held.

For the test, org.mprisd.Test.Notifications:
  SetUserSwitch(b)   the user's own Do Not Disturb toggle; turning it off clears every inhibition,
                     as Plasma's does
  Inhibitors() -> as the unique names holding an inhibition
"""
import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
PROPS = "org.freedesktop.DBus.Properties"
TEST = "org.mprisd.Test.Notifications"

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()


class Server(dbus.service.Object):
    def __init__(self):
        super().__init__(bus, PATH)
        self.user_switch = False
        self.inhibitions = {}  # cookie -> holder's unique name
        self.next_cookie = 1
        self.announced = False
        bus.add_signal_receiver(self.owner_changed, "NameOwnerChanged", "org.freedesktop.DBus")

    def inhibited(self):
        return self.user_switch or bool(self.inhibitions)

    def announce(self):
        now = self.inhibited()
        if now != self.announced:
            self.announced = now
            self.PropertiesChanged(NAME, {"Inhibited": dbus.Boolean(now)}, [])

    def owner_changed(self, name, old, new):
        if new == "" and old:
            for cookie in [c for c, holder in self.inhibitions.items() if holder == old]:
                del self.inhibitions[cookie]
            self.announce()

    @dbus.service.method(NAME, in_signature="ssa{sv}", out_signature="u", sender_keyword="sender")
    def Inhibit(self, desktop_entry, reason, hints, sender=None):
        cookie = self.next_cookie
        self.next_cookie += 1
        self.inhibitions[cookie] = sender
        self.announce()
        return dbus.UInt32(cookie)

    @dbus.service.method(NAME, in_signature="u", out_signature="")
    def UnInhibit(self, cookie):
        if int(cookie) not in self.inhibitions:
            raise dbus.exceptions.DBusException("no such inhibition", name="org.freedesktop.DBus.Error.InvalidArgs")
        del self.inhibitions[int(cookie)]
        self.announce()

    @dbus.service.method(NAME, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["body", "inhibitions"]

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface != NAME or name != "Inhibited":
            raise dbus.exceptions.DBusException("no such property", name="org.freedesktop.DBus.Error.UnknownProperty")
        return dbus.Boolean(self.inhibited())

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return {"Inhibited": dbus.Boolean(self.inhibited())} if interface == NAME else {}

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    @dbus.service.method(TEST, in_signature="b", out_signature="")
    def SetUserSwitch(self, on):
        self.user_switch = bool(on)
        if not on:
            self.inhibitions.clear()
        self.announce()

    @dbus.service.method(TEST, in_signature="", out_signature="as")
    def Inhibitors(self):
        return dbus.Array(sorted(set(self.inhibitions.values())), signature="s")


name = dbus.service.BusName(NAME, bus, do_not_queue=True)
server = Server()
GLib.MainLoop().run()
