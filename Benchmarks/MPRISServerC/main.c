// bench-mpris-server-c: the reference MPRIS player, plain libdbus, single-threaded, fixed values.
//
//   bench-mpris-server-c [--name org.mpris.MediaPlayer2.benchc] [--no-signal]
//
// Owns NAME (DO_NOT_QUEUE) and exports /org/mpris/MediaPlayer2 with just what the MPRIS round-trip
// benchmark calls, answered the way a real player must answer them:
//   org.freedesktop.DBus.Properties.Get(s iface, s name) -> v        (any Player property below)
//   org.freedesktop.DBus.Properties.GetAll(s iface) -> a{sv}         (the whole Player interface)
//   org.mpris.MediaPlayer2.Player.PlayPause()                        (toggles PlaybackStatus and
//       emits PropertiesChanged with the new PlaybackStatus, as the MPRIS spec requires; --no-signal
//       leaves the signal out)
// The values (metadata with a track id, title, artist, album, length and URL) are the size of what
// `mprisd play` returns for a file, so both servers marshal about the same bytes. No introspection,
// no other interface: this is the floor a libdbus server cannot go below, not a complete player.
// Prints "ready" once the name is owned; loops on dbus_connection_read_write_dispatch(conn, -1).
// SIGTERM/SIGINT shut the socket down and the loop ends (bench_dbus_serve, Shims/BenchDBus).
#include "bench_dbus.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAYER_IFACE "org.mpris.MediaPlayer2.Player"
#define PROPS_IFACE "org.freedesktop.DBus.Properties"
#define MPRIS_PATH "/org/mpris/MediaPlayer2"

static int playing = 1;
static int emit_signal = 1;

static int append_variant(DBusMessageIter *into, int type, const char *sig, const void *value) {
    DBusMessageIter v;
    return dbus_message_iter_open_container(into, DBUS_TYPE_VARIANT, sig, &v) &&
           dbus_message_iter_append_basic(&v, type, value) && dbus_message_iter_close_container(into, &v);
}

static int append_string_array_variant(DBusMessageIter *into, const char *item) {
    DBusMessageIter v, a;
    return dbus_message_iter_open_container(into, DBUS_TYPE_VARIANT, "as", &v) &&
           dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "s", &a) &&
           dbus_message_iter_append_basic(&a, DBUS_TYPE_STRING, &item) &&
           dbus_message_iter_close_container(&v, &a) && dbus_message_iter_close_container(into, &v);
}

static int entry_begin(DBusMessageIter *dict, DBusMessageIter *entry, const char *key) {
    return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, entry) &&
           dbus_message_iter_append_basic(entry, DBUS_TYPE_STRING, &key);
}

static int append_metadata(DBusMessageIter *into) {
    DBusMessageIter v, dict, e;
    const char *trackid = "/org/mpris/MediaPlayer2/Track/1";
    const char *title = "Long tone";
    const char *artist = "mprisd benchmarks";
    const char *album = "Benchmarks";
    const char *url = "file:///tmp/mprisd-bench/tone.wav";
    int64_t length = 600000000;
    int ok = dbus_message_iter_open_container(into, DBUS_TYPE_VARIANT, "a{sv}", &v) &&
             dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "{sv}", &dict);
    ok = ok && entry_begin(&dict, &e, "mpris:trackid") &&
         append_variant(&e, DBUS_TYPE_OBJECT_PATH, "o", &trackid) && dbus_message_iter_close_container(&dict, &e);
    ok = ok && entry_begin(&dict, &e, "mpris:length") && append_variant(&e, DBUS_TYPE_INT64, "x", &length) &&
         dbus_message_iter_close_container(&dict, &e);
    ok = ok && entry_begin(&dict, &e, "xesam:title") && append_variant(&e, DBUS_TYPE_STRING, "s", &title) &&
         dbus_message_iter_close_container(&dict, &e);
    ok = ok && entry_begin(&dict, &e, "xesam:artist") && append_string_array_variant(&e, artist) &&
         dbus_message_iter_close_container(&dict, &e);
    ok = ok && entry_begin(&dict, &e, "xesam:album") && append_variant(&e, DBUS_TYPE_STRING, "s", &album) &&
         dbus_message_iter_close_container(&dict, &e);
    ok = ok && entry_begin(&dict, &e, "xesam:url") && append_variant(&e, DBUS_TYPE_STRING, "s", &url) &&
         dbus_message_iter_close_container(&dict, &e);
    return ok && dbus_message_iter_close_container(&v, &dict) && dbus_message_iter_close_container(into, &v);
}

// Appends the value of Player property `name` as a variant; 0 if there is no such property.
static int append_property(DBusMessageIter *into, const char *name, int *known) {
    const char *status = playing ? "Playing" : "Paused";
    const char *loop = "None";
    double one = 1.0;
    dbus_bool_t yes = TRUE, no = FALSE;
    int64_t position = 1234567;
    *known = 1;
    if (strcmp(name, "PlaybackStatus") == 0) return append_variant(into, DBUS_TYPE_STRING, "s", &status);
    if (strcmp(name, "LoopStatus") == 0) return append_variant(into, DBUS_TYPE_STRING, "s", &loop);
    if (strcmp(name, "Rate") == 0 || strcmp(name, "MinimumRate") == 0 || strcmp(name, "MaximumRate") == 0 ||
        strcmp(name, "Volume") == 0)
        return append_variant(into, DBUS_TYPE_DOUBLE, "d", &one);
    if (strcmp(name, "Shuffle") == 0) return append_variant(into, DBUS_TYPE_BOOLEAN, "b", &no);
    if (strcmp(name, "Metadata") == 0) return append_metadata(into);
    if (strcmp(name, "Position") == 0) return append_variant(into, DBUS_TYPE_INT64, "x", &position);
    if (strcmp(name, "CanGoNext") == 0 || strcmp(name, "CanGoPrevious") == 0 || strcmp(name, "CanPlay") == 0 ||
        strcmp(name, "CanPause") == 0 || strcmp(name, "CanSeek") == 0 || strcmp(name, "CanControl") == 0)
        return append_variant(into, DBUS_TYPE_BOOLEAN, "b", strcmp(name, "CanGoNext") == 0 ? &no : &yes);
    *known = 0;
    return 1;
}

static const char *const player_properties[] = {
    "PlaybackStatus", "LoopStatus", "Rate", "Shuffle", "Metadata", "Volume", "Position", "MinimumRate",
    "MaximumRate", "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek", "CanControl", NULL};

static void reply_error(DBusConnection *conn, DBusMessage *call, const char *name, const char *text) {
    if (dbus_message_get_no_reply(call)) return;
    DBusMessage *reply = dbus_message_new_error(call, name, text);
    if (reply != NULL) {
        dbus_connection_send(conn, reply, NULL);
        dbus_message_unref(reply);
    }
}

static void send_or_fail(DBusConnection *conn, DBusMessage *call, DBusMessage *reply, int ok) {
    if (!ok) {
        dbus_message_unref(reply);
        reply_error(conn, call, DBUS_ERROR_NO_MEMORY, "out of memory");
        return;
    }
    if (!dbus_message_get_no_reply(call)) dbus_connection_send(conn, reply, NULL);
    dbus_message_unref(reply);
}

static void emit_status_changed(DBusConnection *conn) {
    DBusMessage *signal = dbus_message_new_signal(MPRIS_PATH, PROPS_IFACE, "PropertiesChanged");
    if (signal == NULL) return;
    DBusMessageIter it, dict, e, inv;
    const char *iface = PLAYER_IFACE;
    int known;
    dbus_message_iter_init_append(signal, &it);
    int ok = dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &iface) &&
             dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict) &&
             entry_begin(&dict, &e, "PlaybackStatus") && append_property(&e, "PlaybackStatus", &known) &&
             dbus_message_iter_close_container(&dict, &e) && dbus_message_iter_close_container(&it, &dict) &&
             dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &inv) &&
             dbus_message_iter_close_container(&it, &inv);
    if (ok) dbus_connection_send(conn, signal, NULL);
    dbus_message_unref(signal);
}

static DBusHandlerResult handle_message(DBusConnection *conn, DBusMessage *msg, void *user_data) {
    (void)user_data;
    if (dbus_message_get_type(msg) != DBUS_MESSAGE_TYPE_METHOD_CALL) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    const char *iface = dbus_message_get_interface(msg);
    const char *member = dbus_message_get_member(msg);
    const char *sig = dbus_message_get_signature(msg);
    if (iface == NULL) iface = "";

    if (strcmp(iface, PROPS_IFACE) == 0 && strcmp(member, "Get") == 0) {
        const char *which = NULL, *name = NULL;
        if (strcmp(sig, "ss") != 0 ||
            !dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &which, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID)) {
            reply_error(conn, msg, DBUS_ERROR_INVALID_ARGS, "Get takes (ss)");
            return DBUS_HANDLER_RESULT_HANDLED;
        }
        if (strcmp(which, PLAYER_IFACE) != 0) {
            reply_error(conn, msg, DBUS_ERROR_UNKNOWN_INTERFACE, "no such interface");
            return DBUS_HANDLER_RESULT_HANDLED;
        }
        DBusMessage *reply = dbus_message_new_method_return(msg);
        if (reply == NULL) return DBUS_HANDLER_RESULT_NEED_MEMORY;
        DBusMessageIter it;
        int known;
        dbus_message_iter_init_append(reply, &it);
        int ok = append_property(&it, name, &known);
        if (!known) {
            dbus_message_unref(reply);
            reply_error(conn, msg, DBUS_ERROR_UNKNOWN_PROPERTY, "no such property");
            return DBUS_HANDLER_RESULT_HANDLED;
        }
        send_or_fail(conn, msg, reply, ok);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    if (strcmp(iface, PROPS_IFACE) == 0 && strcmp(member, "GetAll") == 0) {
        const char *which = NULL;
        if (strcmp(sig, "s") != 0 || !dbus_message_get_args(msg, NULL, DBUS_TYPE_STRING, &which, DBUS_TYPE_INVALID)) {
            reply_error(conn, msg, DBUS_ERROR_INVALID_ARGS, "GetAll takes (s)");
            return DBUS_HANDLER_RESULT_HANDLED;
        }
        DBusMessage *reply = dbus_message_new_method_return(msg);
        if (reply == NULL) return DBUS_HANDLER_RESULT_NEED_MEMORY;
        DBusMessageIter it, dict, e;
        int known, ok;
        dbus_message_iter_init_append(reply, &it);
        ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
        if (strcmp(which, PLAYER_IFACE) == 0) {
            for (int i = 0; ok && player_properties[i] != NULL; i++) {
                ok = entry_begin(&dict, &e, player_properties[i]) &&
                     append_property(&e, player_properties[i], &known) && dbus_message_iter_close_container(&dict, &e);
            }
        }
        ok = ok && dbus_message_iter_close_container(&it, &dict);
        send_or_fail(conn, msg, reply, ok);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    if ((strcmp(iface, PLAYER_IFACE) == 0 || iface[0] == '\0') && strcmp(member, "PlayPause") == 0) {
        if (sig[0] != '\0') {
            reply_error(conn, msg, DBUS_ERROR_INVALID_ARGS, "PlayPause takes no arguments");
            return DBUS_HANDLER_RESULT_HANDLED;
        }
        playing = !playing;
        DBusMessage *reply = dbus_message_new_method_return(msg);
        if (reply == NULL) return DBUS_HANDLER_RESULT_NEED_MEMORY;
        send_or_fail(conn, msg, reply, 1);
        if (emit_signal) emit_status_changed(conn);
        return DBUS_HANDLER_RESULT_HANDLED;
    }
    reply_error(conn, msg, DBUS_ERROR_UNKNOWN_METHOD, "no such method");
    return DBUS_HANDLER_RESULT_HANDLED;
}

int main(int argc, char **argv) {
    const char *name = "org.mpris.MediaPlayer2.benchc";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) {
            name = argv[++i];
        } else if (strcmp(argv[i], "--no-signal") == 0) {
            emit_signal = 0;
        } else {
            fprintf(stderr, "usage: bench-mpris-server-c [--name BUSNAME] [--no-signal]\n");
            return 2;
        }
    }
    if (!dbus_validate_bus_name(name, NULL)) {
        fprintf(stderr, "bench-mpris-server-c: invalid bus name %s\n", name);
        return 2;
    }
    return bench_dbus_serve("bench-mpris-server-c", name, MPRIS_PATH, handle_message);
}
