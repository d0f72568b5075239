#!/usr/bin/python3
"""A stand-in for GNOME Shell's key grabber on the session bus (no shell can run in a test).

org.gnome.Shell at /org/gnome/Shell with the methods gnome-settings-daemon's gsd-media-keys calls
(GrabAccelerators, GrabAccelerator, UngrabAccelerators, UngrabAccelerator) and the signal it
follows (AcceleratorActivated), keeping the grabs as the shell does: an accelerator another
grab holds is refused (action 0). For the test, org.mprisd.Test.KeyGrabber:
  Grabs() -> a(suu)            the accelerators held, with their action modes and flags
  Press(s accel, u mode) -> b  the key pressed once in `mode` (1: normal, 4: the lock screen):
                               AcceleratorActivated for the grab holding it, if its modes allow
  Hold(s accel, u repeats) -> u  the key held down: one activation, then `repeats` more for a
                               grab without META_KEY_BINDING_IGNORE_AUTOREPEAT (flag 16), as the
                               shell's auto-repeat does; returns how many were sent
"""
import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

SHELL = "org.gnome.Shell"
TEST = "org.mprisd.Test.KeyGrabber"
IGNORE_AUTOREPEAT = 16
NORMAL = 1

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()


class KeyGrabber(dbus.service.Object):
    def __init__(self):
        super().__init__(bus, "/org/gnome/Shell")
        self.next_action = 1
        self.grabs = {}  # action -> (accelerator, modes, flags)

    def grab(self, accelerator, modes, flags):
        if any(held == accelerator for held, _, _ in self.grabs.values()):
            return 0
        action = self.next_action
        self.next_action += 1
        self.grabs[action] = (accelerator, int(modes), int(flags))
        return action

    @dbus.service.method(SHELL, in_signature="a(suu)", out_signature="au")
    def GrabAccelerators(self, accelerators):
        return [dbus.UInt32(self.grab(str(a), m, f)) for a, m, f in accelerators]

    @dbus.service.method(SHELL, in_signature="suu", out_signature="u")
    def GrabAccelerator(self, accelerator, modes, flags):
        return dbus.UInt32(self.grab(str(accelerator), modes, flags))

    @dbus.service.method(SHELL, in_signature="au", out_signature="b")
    def UngrabAccelerators(self, actions):
        found = all(int(a) in self.grabs for a in actions)
        for action in actions:
            self.grabs.pop(int(action), None)
        return found

    @dbus.service.method(SHELL, in_signature="u", out_signature="b")
    def UngrabAccelerator(self, action):
        return self.UngrabAccelerators([action])

    @dbus.service.signal(SHELL, signature="ua{sv}")
    def AcceleratorActivated(self, action, parameters):
        pass

    def activate(self, action, mode):
        self.AcceleratorActivated(dbus.UInt32(action), dbus.Dictionary(
            {"timestamp": dbus.UInt32(0), "action-mode": dbus.UInt32(mode), "device-node": dbus.String("")},
            signature="sv"))

    def holder(self, accelerator):
        return next(((a, m, f) for a, (acc, m, f) in self.grabs.items() if acc == accelerator), None)

    @dbus.service.method(TEST, in_signature="", out_signature="a(suu)")
    def Grabs(self):
        return [(a, dbus.UInt32(m), dbus.UInt32(f)) for a, m, f in self.grabs.values()]

    @dbus.service.method(TEST, in_signature="su", out_signature="b")
    def Press(self, accelerator, mode):
        held = self.holder(str(accelerator))
        if held is None or not (held[1] & int(mode)):
            return False
        self.activate(held[0], int(mode))
        return True

    @dbus.service.method(TEST, in_signature="su", out_signature="u")
    def Hold(self, accelerator, repeats):
        held = self.holder(str(accelerator))
        if held is None:
            return dbus.UInt32(0)
        count = 1 if held[2] & IGNORE_AUTOREPEAT else 1 + int(repeats)
        for _ in range(count):
            self.activate(held[0], NORMAL)
        return dbus.UInt32(count)


name = dbus.service.BusName(SHELL, bus, do_not_queue=True)
grabber = KeyGrabber()
print("ready", flush=True)
GLib.MainLoop().run()
