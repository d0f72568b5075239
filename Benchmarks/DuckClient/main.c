// bench-duck-client: one session that ducks others, activated and deactivated on command, each
// call timed on CLOCK_MONOTONIC (the same clock as Python's time.monotonic()), for
// Benchmarks/audio-decision.sh (issue 14).
//
//   bench-duck-client [--name bench-ducker]
//
// Registers a playback session with options mixWithOthers + duckOthers (what `mprisd run --duck`
// registers) with org.mprisd.AudioPolicy1.Register on one connection, prints
//   registered <path>
// then reads commands from stdin, one a line, and answers each:
//   activate    → activated <ns before the call> <ns after the reply>
//   deactivate  → deactivated <ns before the call> <ns after the reply>
// Each call is one blocking call; the events the daemon sends between calls are read and dropped.
// End of stdin ends the program (and with its connection, the session).
#include "bench_clock.h"
#include "bench_dbus.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define DAEMON "org.mprisd.AudioPolicy"
#define POLICY_PATH "/org/mprisd/AudioPolicy"
#define POLICY_IFACE "org.mprisd.AudioPolicy1"
#define SESSION_IFACE "org.mprisd.AudioSession1"
#define TIMEOUT_MS 30000

static int entry_string(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter e, v;
    return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
           dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) &&
           dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "s", &v) &&
           dbus_message_iter_append_basic(&v, DBUS_TYPE_STRING, &value) &&
           dbus_message_iter_close_container(&e, &v) && dbus_message_iter_close_container(dict, &e);
}

static int entry_options(DBusMessageIter *dict) {
    DBusMessageIter e, v, a;
    const char *key = "options", *mix = "mixWithOthers", *duck = "duckOthers";
    return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
           dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) &&
           dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "as", &v) &&
           dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "s", &a) &&
           dbus_message_iter_append_basic(&a, DBUS_TYPE_STRING, &mix) &&
           dbus_message_iter_append_basic(&a, DBUS_TYPE_STRING, &duck) &&
           dbus_message_iter_close_container(&v, &a) && dbus_message_iter_close_container(&e, &v) &&
           dbus_message_iter_close_container(dict, &e);
}

static void drain(DBusConnection *conn) {
    while (dbus_connection_get_dispatch_status(conn) == DBUS_DISPATCH_DATA_REMAINS) {
        DBusMessage *m = dbus_connection_pop_message(conn);
        if (m == NULL) break;
        dbus_message_unref(m);
    }
}

// Sends `call` (consumed), waits for the reply; 0 on success.
static int call_blocking(DBusConnection *conn, DBusMessage *call, DBusMessage **reply_out) {
    DBusError err;
    dbus_error_init(&err);
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(conn, call, TIMEOUT_MS, &err);
    dbus_message_unref(call);
    drain(conn);
    if (reply == NULL) {
        fprintf(stderr, "bench-duck-client: %s: %s\n", err.name, err.message);
        dbus_error_free(&err);
        return -1;
    }
    if (reply_out) *reply_out = reply; else dbus_message_unref(reply);
    return 0;
}

int main(int argc, char **argv) {
    const char *name = "bench-ducker";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) name = argv[++i];
        else { fprintf(stderr, "usage: bench-duck-client [--name NAME]\n"); return 64; }
    }
    DBusConnection *conn = bench_dbus_connect("bench-duck-client");
    if (conn == NULL) return 1;
    DBusError err;
    dbus_error_init(&err);

    DBusMessage *call = dbus_message_new_method_call(DAEMON, POLICY_PATH, POLICY_IFACE, "Register");
    DBusMessageIter it, dict;
    dbus_message_iter_init_append(call, &it);
    if (!dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict) ||
        !entry_string(&dict, "category", "playback") || !entry_string(&dict, "mode", "default") ||
        !entry_options(&dict) || !entry_string(&dict, "name", name) || !dbus_message_iter_close_container(&it, &dict))
        return 1;
    DBusMessage *reply = NULL;
    if (call_blocking(conn, call, &reply) != 0) return 1;
    const char *path = NULL;
    if (!dbus_message_get_args(reply, &err, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID)) {
        fprintf(stderr, "bench-duck-client: Register: %s\n", err.message);
        return 1;
    }
    char session[256];
    snprintf(session, sizeof session, "%s", path);
    dbus_message_unref(reply);
    printf("registered %s\n", session);
    fflush(stdout);

    char line[64];
    while (fgets(line, sizeof line, stdin) != NULL) {
        int activate = strncmp(line, "activate", 8) == 0;
        if (!activate && strncmp(line, "deactivate", 10) != 0) {
            fprintf(stderr, "bench-duck-client: unknown command: %s", line);
            continue;
        }
        call = dbus_message_new_method_call(DAEMON, session, SESSION_IFACE, activate ? "Activate" : "Deactivate");
        dbus_message_iter_init_append(call, &it);
        if (!dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict) ||
            !dbus_message_iter_close_container(&it, &dict))
            return 1;
        int64_t before = bench_now_ns();
        if (call_blocking(conn, call, NULL) != 0) return 1;
        int64_t after = bench_now_ns();
        printf("%s %lld %lld\n", activate ? "activated" : "deactivated", (long long)before, (long long)after);
        fflush(stdout);
    }
    dbus_connection_close(conn);
    dbus_connection_unref(conn);
    return 0;
}
