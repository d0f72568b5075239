// bench-mpris-client: blocking-call latency of MPRIS calls against one or more players.
//
//   bench-mpris-client --dest BUSNAME [--dest BUSNAME2 ...] --method Get|GetAll|PlayPause
//                      [--calls 10000] [--warmup 1000]
//
// Get is Properties.Get("org.mpris.MediaPlayer2.Player", "PlaybackStatus") (reply: v),
// GetAll is Properties.GetAll("org.mpris.MediaPlayer2.Player") (reply: a{sv}), PlayPause is
// org.mpris.MediaPlayer2.Player.PlayPause() (reply: empty); all on /org/mpris/MediaPlayer2.
// `warmup` unmeasured calls, then `calls` measured ones per destination, one at a time with
// dbus_connection_send_with_reply_and_block, the destinations taking turns call by call (A, B, C,
// A, B, C, ...) so that drift in the machine's load hits all of them alike. For PlayPause both
// counts are rounded up to even numbers, so that every player ends in the state it started in.
// The latency of a call is the time (CLOCK_MONOTONIC) inside send_with_reply_and_block; a reply of
// the wrong signature or an error exits non-zero.
//
// Output, one line per destination, in --dest order:
//   dest=<name> method=<m> calls=<n> median_us=<x.xx> p99_us=<y.yy> mean_us=<z.zz> max_us=<w.ww>
#include "bench_clock.h"
#include "bench_dbus.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALL_TIMEOUT_MS 10000
#define MAX_DESTS 8
#define PLAYER_IFACE "org.mpris.MediaPlayer2.Player"

static long parse_count(const char *option, const char *text, long min) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > 100000000L) {
        fprintf(stderr, "bench-mpris-client: bad value for %s: %s\n", option, text);
        exit(2);
    }
    return value;
}

static int compare_ns(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static DBusMessage *make_call(const char *dest, const char *method) {
    DBusMessage *call;
    const char *iface = PLAYER_IFACE;
    if (strcmp(method, "PlayPause") == 0) {
        return dbus_message_new_method_call(dest, "/org/mpris/MediaPlayer2", PLAYER_IFACE, "PlayPause");
    }
    call = dbus_message_new_method_call(dest, "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", method);
    if (call == NULL) return NULL;
    if (strcmp(method, "Get") == 0) {
        const char *property = "PlaybackStatus";
        dbus_message_append_args(call, DBUS_TYPE_STRING, &iface, DBUS_TYPE_STRING, &property, DBUS_TYPE_INVALID);
    } else {
        dbus_message_append_args(call, DBUS_TYPE_STRING, &iface, DBUS_TYPE_INVALID);
    }
    return call;
}

int main(int argc, char **argv) {
    const char *dests[MAX_DESTS];
    int ndests = 0;
    const char *method = NULL;
    long calls = 10000, warmup = 1000;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) {
            fprintf(stderr, "usage: bench-mpris-client --dest BUSNAME [--dest ...] --method Get|GetAll|PlayPause "
                            "[--calls 10000] [--warmup 1000]\n");
            return 2;
        }
        const char *arg = argv[i], *value = argv[++i];
        if (strcmp(arg, "--dest") == 0 && ndests < MAX_DESTS) dests[ndests++] = value;
        else if (strcmp(arg, "--method") == 0) method = value;
        else if (strcmp(arg, "--calls") == 0) calls = parse_count(arg, value, 1);
        else if (strcmp(arg, "--warmup") == 0) warmup = parse_count(arg, value, 0);
        else {
            fprintf(stderr, "bench-mpris-client: unknown option %s (or too many --dest)\n", arg);
            return 2;
        }
    }
    if (ndests == 0 || method == NULL ||
        (strcmp(method, "Get") != 0 && strcmp(method, "GetAll") != 0 && strcmp(method, "PlayPause") != 0)) {
        fprintf(stderr, "bench-mpris-client: needs --dest and --method Get|GetAll|PlayPause\n");
        return 2;
    }
    const char *expected = strcmp(method, "Get") == 0 ? "v" : strcmp(method, "GetAll") == 0 ? "a{sv}" : "";
    if (strcmp(method, "PlayPause") == 0) {
        calls += calls % 2;
        warmup += warmup % 2;
    }
    int64_t *samples = malloc(sizeof(int64_t) * (size_t)calls * (size_t)ndests);
    if (samples == NULL) return 1;

    DBusConnection *conn = bench_dbus_connect("bench-mpris-client");
    if (conn == NULL) return 1;
    DBusError err;
    dbus_error_init(&err);

    for (long n = 0; n < (warmup + calls) * ndests; n++) {
        long i = n / ndests;
        int d = (int)(n % ndests);
        DBusMessage *call = make_call(dests[d], method);
        if (call == NULL) return 1;
        int64_t start = bench_now_ns();
        DBusMessage *reply = dbus_connection_send_with_reply_and_block(conn, call, CALL_TIMEOUT_MS, &err);
        int64_t end = bench_now_ns();
        dbus_message_unref(call);
        if (reply == NULL) {
            fprintf(stderr, "bench-mpris-client: %s %s call %ld: %s: %s\n", dests[d], method, i, err.name, err.message);
            return 1;
        }
        if (strcmp(dbus_message_get_signature(reply), expected) != 0) {
            fprintf(stderr, "bench-mpris-client: %s %s call %ld: reply signature \"%s\", expected \"%s\"\n",
                    dests[d], method, i, dbus_message_get_signature(reply), expected);
            return 1;
        }
        dbus_message_unref(reply);
        while (dbus_connection_get_dispatch_status(conn) == DBUS_DISPATCH_DATA_REMAINS) {
            DBusMessage *other = dbus_connection_pop_message(conn);
            if (other == NULL) break;
            dbus_message_unref(other);
        }
        if (i >= warmup) samples[(size_t)d * (size_t)calls + (size_t)(i - warmup)] = end - start;
    }

    for (int d = 0; d < ndests; d++) {
        int64_t *mine = samples + (size_t)d * (size_t)calls;
        qsort(mine, (size_t)calls, sizeof mine[0], compare_ns);
        double median = calls % 2 ? (double)mine[calls / 2] : ((double)mine[calls / 2 - 1] + (double)mine[calls / 2]) / 2;
        long rank = (99 * calls + 99) / 100;
        double sum = 0;
        for (long i = 0; i < calls; i++) sum += (double)mine[i];
        printf("dest=%s method=%s calls=%ld median_us=%.2f p99_us=%.2f mean_us=%.2f max_us=%.2f\n", dests[d], method,
               calls, median / 1000, (double)mine[rank - 1] / 1000, sum / (double)calls / 1000,
               (double)mine[calls - 1] / 1000);
    }
    fflush(stdout);
    dbus_connection_close(conn);
    dbus_connection_unref(conn);
    free(samples);
    return 0;
}
