// bench-echo-client: blocking-call latency against an echo server.
//
//   bench-echo-client --dest BUSNAME [--dest BUSNAME2 ...] [--path /org/mprisd/Bench]
//                     [--interface org.mprisd.Bench] --method Ping|Echo [--calls 10000]
//                     [--warmup 1000] [--payload 16]
//
// Makes `warmup` unmeasured calls, then `calls` measured ones, each with
// dbus_connection_send_with_reply_and_block, one at a time. With several --dest, the calls go to
// the destinations in turn (A, B, A, B, ...), `warmup` + `calls` to each, so that all of them are
// measured under the same machine conditions; one result line per destination, in --dest order.
// The latency of a call is the time (CLOCK_MONOTONIC) spent inside send_with_reply_and_block:
// message construction and reply checking are outside the measured interval. Echo sends a string of
// `payload` bytes and checks that the reply is exactly that string; any error or mismatch exits
// non-zero.
//
// Output, one line per destination:
//   dest=<name> method=<m> calls=<n> median_us=<x.xx> p99_us=<y.yy> mean_us=<z.zz>
#include "bench_clock.h"
#include "bench_dbus.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALL_TIMEOUT_MS 10000
#define MAX_DESTS 8

enum method { METHOD_PING, METHOD_ECHO };

static void usage(FILE *to) {
    fprintf(to, "usage: bench-echo-client --dest BUSNAME [--dest BUSNAME2 ...] [--path /org/mprisd/Bench] "
                "[--interface org.mprisd.Bench] --method Ping|Echo [--calls 10000] "
                "[--warmup 1000] [--payload 16]\n");
}

static long parse_count(const char *option, const char *text, long min) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > 100000000L) {
        fprintf(stderr, "bench-echo-client: bad value for %s: %s\n", option, text);
        exit(2);
    }
    return value;
}

static int compare_ns(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    const char *dests[MAX_DESTS];
    int ndests = 0;
    const char *path = "/org/mprisd/Bench";
    const char *iface = "org.mprisd.Bench";
    const char *method_name = NULL;
    long calls = 10000, warmup = 1000, payload = 16;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "bench-echo-client: %s needs a value\n", arg);
            usage(stderr);
            return 2;
        }
        const char *value = argv[++i];
        if (strcmp(arg, "--dest") == 0) {
            if (ndests == MAX_DESTS) {
                fprintf(stderr, "bench-echo-client: at most %d --dest\n", MAX_DESTS);
                return 2;
            }
            dests[ndests++] = value;
        } else if (strcmp(arg, "--path") == 0) {
            path = value;
        } else if (strcmp(arg, "--interface") == 0) {
            iface = value;
        } else if (strcmp(arg, "--method") == 0) {
            method_name = value;
        } else if (strcmp(arg, "--calls") == 0) {
            calls = parse_count(arg, value, 1);
        } else if (strcmp(arg, "--warmup") == 0) {
            warmup = parse_count(arg, value, 0);
        } else if (strcmp(arg, "--payload") == 0) {
            payload = parse_count(arg, value, 0);
        } else {
            fprintf(stderr, "bench-echo-client: unknown option %s\n", arg);
            usage(stderr);
            return 2;
        }
    }
    if (ndests == 0 || method_name == NULL) {
        usage(stderr);
        return 2;
    }
    enum method method;
    if (strcmp(method_name, "Ping") == 0) {
        method = METHOD_PING;
    } else if (strcmp(method_name, "Echo") == 0) {
        method = METHOD_ECHO;
    } else {
        fprintf(stderr, "bench-echo-client: --method must be Ping or Echo, not %s\n", method_name);
        return 2;
    }
    for (int d = 0; d < ndests; d++) {
        if (!dbus_validate_bus_name(dests[d], NULL)) {
            fprintf(stderr, "bench-echo-client: invalid bus name %s\n", dests[d]);
            return 2;
        }
    }
    if (!dbus_validate_path(path, NULL) || !dbus_validate_interface(iface, NULL)) {
        fprintf(stderr, "bench-echo-client: invalid object path or interface\n");
        return 2;
    }

    // The Echo payload: `payload` printable ASCII bytes (valid UTF-8, no NUL).
    char *text = malloc((size_t)payload + 1);
    int64_t *samples = malloc(sizeof(int64_t) * (size_t)calls * (size_t)ndests);
    if (text == NULL || samples == NULL) {
        fprintf(stderr, "bench-echo-client: out of memory\n");
        return 1;
    }
    for (long i = 0; i < payload; i++) {
        text[i] = (char)('a' + i % 26);
    }
    text[payload] = '\0';

    DBusConnection *conn = bench_dbus_connect("bench-echo-client");
    if (conn == NULL) return 1;
    DBusError err;
    dbus_error_init(&err);

    for (long n = 0; n < (warmup + calls) * ndests; n++) {
        long i = n / ndests; // the call's index for its destination
        int d = (int)(n % ndests);
        const char *dest = dests[d];
        DBusMessage *call = dbus_message_new_method_call(dest, path, iface, method_name);
        if (call == NULL) {
            fprintf(stderr, "bench-echo-client: out of memory\n");
            return 1;
        }
        if (method == METHOD_ECHO) {
            const char *arg = text;
            if (!dbus_message_append_args(call, DBUS_TYPE_STRING, &arg, DBUS_TYPE_INVALID)) {
                fprintf(stderr, "bench-echo-client: out of memory\n");
                return 1;
            }
        }

        int64_t start = bench_now_ns();
        DBusMessage *reply =
            dbus_connection_send_with_reply_and_block(conn, call, CALL_TIMEOUT_MS, &err);
        int64_t end = bench_now_ns();
        dbus_message_unref(call);

        if (reply == NULL) {
            fprintf(stderr, "bench-echo-client: %s call %ld: %s: %s\n", dest, i, err.name,
                    err.message);
            return 1;
        }
        if (method == METHOD_PING) {
            if (dbus_message_get_signature(reply)[0] != '\0') {
                fprintf(stderr, "bench-echo-client: %s call %ld: Ping reply has signature \"%s\"\n",
                        dest, i, dbus_message_get_signature(reply));
                return 1;
            }
        } else {
            const char *got = NULL;
            if (strcmp(dbus_message_get_signature(reply), "s") != 0 ||
                !dbus_message_get_args(reply, &err, DBUS_TYPE_STRING, &got, DBUS_TYPE_INVALID)) {
                fprintf(stderr, "bench-echo-client: %s call %ld: Echo reply has signature \"%s\"\n",
                        dest, i, dbus_message_get_signature(reply));
                return 1;
            }
            if (strlen(got) != (size_t)payload || memcmp(got, text, (size_t)payload) != 0) {
                fprintf(stderr, "bench-echo-client: %s call %ld: Echo reply differs from the request\n",
                        dest, i);
                return 1;
            }
        }
        dbus_message_unref(reply);

        // Anything else that arrived (NameAcquired for our unique name) is dropped unread.
        while (dbus_connection_get_dispatch_status(conn) == DBUS_DISPATCH_DATA_REMAINS) {
            DBusMessage *other = dbus_connection_pop_message(conn);
            if (other == NULL) {
                break;
            }
            dbus_message_unref(other);
        }

        if (i >= warmup) {
            samples[(size_t)d * (size_t)calls + (size_t)(i - warmup)] = end - start;
        }
    }

    for (int d = 0; d < ndests; d++) {
        int64_t *mine = samples + (size_t)d * (size_t)calls;
        qsort(mine, (size_t)calls, sizeof mine[0], compare_ns);
        double median_ns = calls % 2 == 1
                               ? (double)mine[calls / 2]
                               : ((double)mine[calls / 2 - 1] + (double)mine[calls / 2]) / 2.0;
        // p99 by nearest rank: the smallest sample with at least 99% of samples at or below it.
        long rank = (99 * calls + 99) / 100; // ceil(0.99 * calls)
        double p99_ns = (double)mine[rank - 1];
        double sum_ns = 0;
        for (long i = 0; i < calls; i++) {
            sum_ns += (double)mine[i];
        }
        printf("dest=%s method=%s calls=%ld median_us=%.2f p99_us=%.2f mean_us=%.2f\n", dests[d],
               method_name, calls, median_ns / 1000.0, p99_ns / 1000.0,
               sum_ns / (double)calls / 1000.0);
    }
    fflush(stdout);

    dbus_connection_close(conn);
    dbus_connection_unref(conn);
    free(samples);
    free(text);
    return 0;
}
