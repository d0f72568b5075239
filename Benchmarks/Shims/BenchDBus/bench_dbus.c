#include "bench_dbus.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

DBusConnection *bench_dbus_connect(const char *program) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (connection == NULL) {
        fprintf(stderr, "%s: cannot connect to the session bus: %s\n", program, error.message);
        dbus_error_free(&error);
        return NULL;
    }
    dbus_connection_set_exit_on_disconnect(connection, FALSE);
    return connection;
}

static volatile sig_atomic_t stop_requested = 0;
static int bus_fd = -1;

static void on_signal(int signo) {
    (void)signo;
    stop_requested = 1;
    if (bus_fd >= 0) shutdown(bus_fd, SHUT_RDWR);
}

int bench_dbus_serve(const char *program, const char *name, const char *path, DBusObjectPathMessageFunction handler) {
    DBusConnection *connection = bench_dbus_connect(program);
    if (connection == NULL) return 1;
    if (!dbus_connection_get_socket(connection, &bus_fd)) bus_fd = -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    DBusError error;
    dbus_error_init(&error);
    static DBusObjectPathVTable vtable; // libdbus keeps what it needs of it; static to be sure
    vtable.message_function = handler;
    if (!dbus_connection_try_register_object_path(connection, path, &vtable, NULL, &error)) {
        fprintf(stderr, "%s: cannot register %s: %s\n", program, path, error.message);
        dbus_error_free(&error);
        return 1;
    }
    int owned = dbus_bus_request_name(connection, name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &error);
    if (owned == -1) {
        fprintf(stderr, "%s: RequestName(%s) failed: %s\n", program, name, error.message);
        dbus_error_free(&error);
        return 1;
    }
    if (owned != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "%s: not the primary owner of %s (reply %d)\n", program, name, owned);
        return 1;
    }
    fputs("ready\n", stdout);
    fflush(stdout);

    while (!stop_requested && dbus_connection_read_write_dispatch(connection, -1)) {
    }
    if (!stop_requested) fprintf(stderr, "%s: disconnected from the bus\n", program);
    dbus_connection_close(connection);
    dbus_connection_unref(connection);
    return 0;
}
