// The session-bus client and server of the C benchmark programs (libdbus), written once.
//
// Clients (bench-echo-client, bench-mpris-client, bench-policy-client, bench-duck-client,
// bench-soak) take a connection from bench_dbus_connect; the reference servers (bench-echo-server-c,
// bench-mpris-server-c) hand their message handler to bench_dbus_serve, which is the whole of a
// single-threaded libdbus server: no timers, no polling, no other threads.
#ifndef BENCH_DBUS_H
#define BENCH_DBUS_H

#include <dbus/dbus.h>

/// A private connection to the session bus (DBUS_SESSION_BUS_ADDRESS): the program owns its
/// lifetime (close + unref), and libdbus never calls _exit() on a disconnect behind its back. NULL,
/// after "PROGRAM: cannot connect to the session bus: ERROR" on stderr, when there is none.
/// Safe to call from several threads at once (each gets a connection of its own).
DBusConnection *bench_dbus_connect(const char *program);

/// Serves `handler` at object `path` under bus name `name` (DO_NOT_QUEUE: someone else owning it is
/// an error), prints "ready" on stdout once the name is owned, then loops on
/// dbus_connection_read_write_dispatch(connection, -1). SIGTERM/SIGINT end the loop: the handler
/// shuts the bus socket down (shutdown(2) is async-signal-safe), libdbus sees the hang-up and
/// read_write_dispatch returns FALSE; a bus disconnect takes the same path. 0 once the loop ended, 1
/// (error on stderr, prefixed by `program`) if the server could not start.
int bench_dbus_serve(const char *program, const char *name, const char *path, DBusObjectPathMessageFunction handler);

#endif
