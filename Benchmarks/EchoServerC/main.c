// bench-echo-server-c: the reference echo server, plain libdbus, single-threaded.
//
//   bench-echo-server-c --name BUSNAME [--path /org/mprisd/Bench] [--interface org.mprisd.Bench]
//
// Connects to the session bus (DBUS_SESSION_BUS_ADDRESS), owns BUSNAME (DO_NOT_QUEUE), exports one
// object with `Ping()` (empty reply) and `Echo(s) -> s`, prints "ready" once the name is owned, and
// loops on dbus_connection_read_write_dispatch(conn, -1): no timers, no polling, no other threads.
//
// SIGTERM/SIGINT, or a bus disconnect, end the loop and the process exits 0 (bench_dbus_serve,
// Shims/BenchDBus).
#include "bench_dbus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *bench_interface = "org.mprisd.Bench";
static void usage(FILE *to) {
    fprintf(to, "usage: bench-echo-server-c --name BUSNAME [--path /org/mprisd/Bench] "
                "[--interface org.mprisd.Bench]\n");
}

static void send_error(DBusConnection *conn, DBusMessage *call, const char *name, const char *text) {
    if (dbus_message_get_no_reply(call)) {
        return;
    }
    DBusMessage *reply = dbus_message_new_error(call, name, text);
    if (reply == NULL) {
        fprintf(stderr, "bench-echo-server-c: out of memory\n");
        exit(1);
    }
    dbus_connection_send(conn, reply, NULL);
    dbus_message_unref(reply);
}

static DBusHandlerResult handle_message(DBusConnection *conn, DBusMessage *msg, void *user_data) {
    (void)user_data;
    if (dbus_message_get_type(msg) != DBUS_MESSAGE_TYPE_METHOD_CALL) {
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    }

    // A method call may omit the interface; then the member alone selects the method.
    const char *iface = dbus_message_get_interface(msg);
    const char *member = dbus_message_get_member(msg);
    const char *signature = dbus_message_get_signature(msg);
    int ours = iface == NULL || strcmp(iface, bench_interface) == 0;

    if (ours && strcmp(member, "Ping") == 0) {
        if (signature[0] != '\0') {
            send_error(conn, msg, DBUS_ERROR_INVALID_ARGS, "Ping takes no arguments");
            return DBUS_HANDLER_RESULT_HANDLED;
        }
        if (!dbus_message_get_no_reply(msg)) {
            DBusMessage *reply = dbus_message_new_method_return(msg);
            if (reply == NULL) {
                return DBUS_HANDLER_RESULT_NEED_MEMORY;
            }
            dbus_connection_send(conn, reply, NULL);
            dbus_message_unref(reply);
        }
        return DBUS_HANDLER_RESULT_HANDLED;
    }

    if (ours && strcmp(member, "Echo") == 0) {
        if (strcmp(signature, "s") != 0) {
            send_error(conn, msg, DBUS_ERROR_INVALID_ARGS, "Echo takes one string (signature \"s\")");
            return DBUS_HANDLER_RESULT_HANDLED;
        }
        if (!dbus_message_get_no_reply(msg)) {
            DBusMessageIter in, out;
            const char *text = NULL;
            dbus_message_iter_init(msg, &in);
            dbus_message_iter_get_basic(&in, &text);
            DBusMessage *reply = dbus_message_new_method_return(msg);
            if (reply == NULL) {
                return DBUS_HANDLER_RESULT_NEED_MEMORY;
            }
            dbus_message_iter_init_append(reply, &out);
            if (!dbus_message_iter_append_basic(&out, DBUS_TYPE_STRING, &text)) {
                dbus_message_unref(reply);
                return DBUS_HANDLER_RESULT_NEED_MEMORY;
            }
            dbus_connection_send(conn, reply, NULL);
            dbus_message_unref(reply);
        }
        return DBUS_HANDLER_RESULT_HANDLED;
    }

    char text[512];
    snprintf(text, sizeof text, "No such method \"%s\" with signature \"%s\" on interface \"%s\"",
             member, signature, iface != NULL ? iface : "(none)");
    send_error(conn, msg, DBUS_ERROR_UNKNOWN_METHOD, text);
    return DBUS_HANDLER_RESULT_HANDLED;
}

int main(int argc, char **argv) {
    const char *name = NULL;
    const char *path = "/org/mprisd/Bench";

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "bench-echo-server-c: %s needs a value\n", arg);
            usage(stderr);
            return 2;
        }
        if (strcmp(arg, "--name") == 0) {
            name = argv[++i];
        } else if (strcmp(arg, "--path") == 0) {
            path = argv[++i];
        } else if (strcmp(arg, "--interface") == 0) {
            bench_interface = argv[++i];
        } else {
            fprintf(stderr, "bench-echo-server-c: unknown option %s\n", arg);
            usage(stderr);
            return 2;
        }
    }
    if (name == NULL) {
        usage(stderr);
        return 2;
    }
    if (!dbus_validate_bus_name(name, NULL) || !dbus_validate_path(path, NULL) ||
        !dbus_validate_interface(bench_interface, NULL)) {
        fprintf(stderr, "bench-echo-server-c: invalid bus name, object path or interface\n");
        return 2;
    }

    return bench_dbus_serve("bench-echo-server-c", name, path, handle_message);
}
