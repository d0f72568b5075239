// libdbus for the C benchmark clients: its headers (pkg-config dbus-1) and the library.
#include <dbus/dbus.h>
