// bench-policy-client: many audio sessions registered with the policy daemon over a few
// connections; optionally a storm of activations and deactivations, timed call by call.
//
//   bench-policy-client [--sessions 1000] [--connections 16] [--decisions 0] [--seed 42] [--hold]
//
// Each of `connections` threads opens its own private connection to the session bus and registers
// sessions/connections sessions with org.mprisd.AudioPolicy1.Register, the configuration drawn from
// the same weighted mix as bench-session-storm (players, podcasts, games, prompts that duck, chat,
// calls, recorders). Then, with --decisions D, each thread makes D/connections random decisions on
// its own sessions (only the owner may call a session): 55 % Activate (5 % of them with
// allowDelayedActivation), 45 % Deactivate (80 % of them with notifyOthers), one blocking call at a
// time (dbus_connection_send_with_reply_and_block). The threads run at once, so the daemon sees
// `connections` callers competing. A refused activation (IsBusy, InsufficientPriority, ...) is a
// decision too and is counted by its error name. Events the daemon sends the owners (Interruption,
// Ducking, ...) are read and counted between calls.
//
// Output (stdout):
//   registered sessions=<n> connections=<k> seconds=<s> per_second=<r>
//   storm decisions=<d> seconds=<s> per_second=<r> signals=<n>
//   activate calls=<n> ok=<n> refused=<n> median_us=.. p99_us=.. max_us=..
//   deactivate calls=<n> ok=<n> refused=<n> median_us=.. p99_us=.. max_us=..
//   refused <error name>=<count> ...
// With --hold it then prints "holding" and keeps every connection (and so every session) until
// SIGTERM or SIGINT: for measuring the daemon's memory with the sessions registered.
#include "bench_clock.h"
#include "bench_dbus.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CONNECTIONS 64
#define DAEMON "org.mprisd.AudioPolicy"
#define POLICY_PATH "/org/mprisd/AudioPolicy"
#define POLICY_IFACE "org.mprisd.AudioPolicy1"
#define SESSION_IFACE "org.mprisd.AudioSession1"
#define TIMEOUT_MS 30000
#define MAX_ERROR_NAMES 16

struct config { const char *category, *mode, *options[2]; int weight; };
static const struct config mix[] = {
    {"playback", "default", {NULL, NULL}, 30},
    {"playback", "spokenAudio", {NULL, NULL}, 8},
    {"soloAmbient", "default", {NULL, NULL}, 10},
    {"ambient", "default", {NULL, NULL}, 15},
    {"playback", "default", {"mixWithOthers", NULL}, 10},
    {"playback", "voicePrompt", {"duckOthers", "interruptSpokenAudioAndMixWithOthers"}, 8},
    {"playAndRecord", "voiceChat", {NULL, NULL}, 2},
    {"playAndRecord", "gameChat", {"mixWithOthers", NULL}, 5},
    {"record", "default", {NULL, NULL}, 4},
    {"playAndRecord", "measurement", {NULL, NULL}, 3},
    {"audioProcessing", "default", {NULL, NULL}, 5},
};
#define MIX_COUNT (sizeof mix / sizeof mix[0])

struct worker {
    int index;
    long sessions, decisions;
    uint64_t rng;
    DBusConnection *conn;
    char **paths;
    int64_t *activate_ns, *deactivate_ns;
    long activates, deactivates, activate_refused, deactivate_refused, signals;
    char error_names[MAX_ERROR_NAMES][128];
    long error_counts[MAX_ERROR_NAMES];
    int failed;
};

static uint64_t next_random(uint64_t *state) { // SplitMix64, as in bench-session-storm
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int compare_ns(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void drain(struct worker *w) {
    while (dbus_connection_get_dispatch_status(w->conn) == DBUS_DISPATCH_DATA_REMAINS) {
        DBusMessage *m = dbus_connection_pop_message(w->conn);
        if (m == NULL) break;
        if (dbus_message_get_type(m) == DBUS_MESSAGE_TYPE_SIGNAL) w->signals++;
        dbus_message_unref(m);
    }
}

static int dict_entry_string(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter e, v;
    return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
           dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) &&
           dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "s", &v) &&
           dbus_message_iter_append_basic(&v, DBUS_TYPE_STRING, &value) &&
           dbus_message_iter_close_container(&e, &v) && dbus_message_iter_close_container(dict, &e);
}

static int dict_entry_bool(DBusMessageIter *dict, const char *key, dbus_bool_t value) {
    DBusMessageIter e, v;
    return dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
           dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) &&
           dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "b", &v) &&
           dbus_message_iter_append_basic(&v, DBUS_TYPE_BOOLEAN, &value) &&
           dbus_message_iter_close_container(&e, &v) && dbus_message_iter_close_container(dict, &e);
}

static int dict_entry_options(DBusMessageIter *dict, const struct config *c) {
    DBusMessageIter e, v, a;
    const char *key = "options";
    int ok = dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &e) &&
             dbus_message_iter_append_basic(&e, DBUS_TYPE_STRING, &key) &&
             dbus_message_iter_open_container(&e, DBUS_TYPE_VARIANT, "as", &v) &&
             dbus_message_iter_open_container(&v, DBUS_TYPE_ARRAY, "s", &a);
    for (int i = 0; ok && i < 2 && c->options[i] != NULL; i++)
        ok = dbus_message_iter_append_basic(&a, DBUS_TYPE_STRING, &c->options[i]);
    return ok && dbus_message_iter_close_container(&v, &a) && dbus_message_iter_close_container(&e, &v) &&
           dbus_message_iter_close_container(dict, &e);
}

static DBusMessage *call_blocking(struct worker *w, DBusMessage *call, int64_t *elapsed, DBusError *err) {
    int64_t start = bench_now_ns();
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(w->conn, call, TIMEOUT_MS, err);
    *elapsed = bench_now_ns() - start;
    dbus_message_unref(call);
    drain(w);
    return reply;
}

static void count_error(struct worker *w, const char *name) {
    for (int i = 0; i < MAX_ERROR_NAMES; i++) {
        if (w->error_names[i][0] == '\0') snprintf(w->error_names[i], sizeof w->error_names[i], "%s", name);
        if (strcmp(w->error_names[i], name) == 0) {
            w->error_counts[i]++;
            return;
        }
    }
}

static int register_sessions(struct worker *w) {
    int total = 0;
    for (size_t i = 0; i < MIX_COUNT; i++) total += mix[i].weight;
    for (long s = 0; s < w->sessions; s++) {
        int pick = (int)(next_random(&w->rng) % (uint64_t)total);
        const struct config *c = &mix[0];
        for (size_t i = 0; i < MIX_COUNT; i++) {
            if (pick < mix[i].weight) { c = &mix[i]; break; }
            pick -= mix[i].weight;
        }
        DBusMessage *call = dbus_message_new_method_call(DAEMON, POLICY_PATH, POLICY_IFACE, "Register");
        DBusMessageIter it, dict;
        dbus_message_iter_init_append(call, &it);
        char name[64];
        snprintf(name, sizeof name, "bench-%d-%ld", w->index, s);
        if (!dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict) ||
            !dict_entry_string(&dict, "category", c->category) || !dict_entry_string(&dict, "mode", c->mode) ||
            !dict_entry_options(&dict, c) || !dict_entry_string(&dict, "name", name) ||
            !dbus_message_iter_close_container(&it, &dict))
            return -1;
        DBusError err;
        dbus_error_init(&err);
        int64_t elapsed;
        DBusMessage *reply = call_blocking(w, call, &elapsed, &err);
        const char *path = NULL;
        if (reply == NULL || !dbus_message_get_args(reply, &err, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID)) {
            fprintf(stderr, "bench-policy-client: Register (%s/%s): %s: %s\n", c->category, c->mode, err.name,
                    err.message);
            return -1;
        }
        w->paths[s] = strdup(path);
        dbus_message_unref(reply);
    }
    return 0;
}

static int storm(struct worker *w) {
    for (long n = 0; n < w->decisions; n++) {
        const char *path = w->paths[next_random(&w->rng) % (uint64_t)w->sessions];
        uint64_t roll = next_random(&w->rng) % 100;
        int activate = roll < 55;
        DBusMessage *call = dbus_message_new_method_call(DAEMON, path, SESSION_IFACE, activate ? "Activate" : "Deactivate");
        DBusMessageIter it, dict;
        dbus_message_iter_init_append(call, &it);
        int ok = dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict);
        if (activate && roll < 5) ok = ok && dict_entry_bool(&dict, "allowDelayedActivation", TRUE);
        if (!activate && roll < 80) ok = ok && dict_entry_bool(&dict, "notifyOthers", TRUE);
        if (!ok || !dbus_message_iter_close_container(&it, &dict)) return -1;
        DBusError err;
        dbus_error_init(&err);
        int64_t elapsed;
        DBusMessage *reply = call_blocking(w, call, &elapsed, &err);
        if (reply == NULL) {
            if (strcmp(err.name, DBUS_ERROR_NO_REPLY) == 0 || strcmp(err.name, DBUS_ERROR_DISCONNECTED) == 0 ||
                strcmp(err.name, DBUS_ERROR_SERVICE_UNKNOWN) == 0) {
                fprintf(stderr, "bench-policy-client: %s: %s\n", err.name, err.message);
                return -1;
            }
            count_error(w, err.name);
            dbus_error_free(&err);
            if (activate) w->activate_refused++; else w->deactivate_refused++;
        } else {
            dbus_message_unref(reply);
        }
        if (activate) w->activate_ns[w->activates++] = elapsed;
        else w->deactivate_ns[w->deactivates++] = elapsed;
    }
    return 0;
}

static pthread_barrier_t start_storm;
static int64_t storm_started, storm_ended;
static pthread_mutex_t time_lock = PTHREAD_MUTEX_INITIALIZER;

static void *run_worker(void *arg) {
    struct worker *w = arg;
    w->conn = bench_dbus_connect("bench-policy-client");
    if (w->conn == NULL || register_sessions(w) != 0) w->failed = 1;
    pthread_barrier_wait(&start_storm); // registration done everywhere
    pthread_barrier_wait(&start_storm); // the storm starts together
    if (!w->failed && storm(w) != 0) w->failed = 1;
    int64_t end = bench_now_ns();
    pthread_mutex_lock(&time_lock);
    if (end > storm_ended) storm_ended = end;
    pthread_mutex_unlock(&time_lock);
    return NULL;
}

static void summary(const char *label, int64_t *ns, long n, long refused) {
    if (n == 0) {
        printf("%s calls=0\n", label);
        return;
    }
    qsort(ns, (size_t)n, sizeof ns[0], compare_ns);
    long rank = (99 * n + 99) / 100;
    double median = n % 2 ? (double)ns[n / 2] : ((double)ns[n / 2 - 1] + (double)ns[n / 2]) / 2;
    printf("%s calls=%ld ok=%ld refused=%ld median_us=%.2f p99_us=%.2f max_us=%.2f\n", label, n, n - refused, refused,
           median / 1000, (double)ns[rank - 1] / 1000, (double)ns[n - 1] / 1000);
}

static long parse_count(const char *option, const char *text, long min, long max) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > max) {
        fprintf(stderr, "bench-policy-client: bad value for %s: %s\n", option, text);
        exit(2);
    }
    return value;
}

int main(int argc, char **argv) {
    long sessions = 1000, connections = 16, decisions = 0, seed = 42;  // the daemon: 64 sessions per connection at most
    int hold = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--hold") == 0) { hold = 1; continue; }
        if (i + 1 >= argc) {
            fprintf(stderr, "usage: bench-policy-client [--sessions N] [--connections K] [--decisions D] "
                            "[--seed S] [--hold]\n");
            return 2;
        }
        const char *arg = argv[i], *value = argv[++i];
        if (strcmp(arg, "--sessions") == 0) sessions = parse_count(arg, value, 0, 10000000);
        else if (strcmp(arg, "--connections") == 0) connections = parse_count(arg, value, 1, MAX_CONNECTIONS);
        else if (strcmp(arg, "--decisions") == 0) decisions = parse_count(arg, value, 0, 100000000);
        else if (strcmp(arg, "--seed") == 0) seed = parse_count(arg, value, 0, 1L << 40);
        else {
            fprintf(stderr, "bench-policy-client: unknown option %s\n", arg);
            return 2;
        }
    }
    // Block the stop signals in every thread; the main thread waits for them with sigwait.
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    dbus_threads_init_default();

    struct worker *workers = calloc((size_t)connections, sizeof *workers);
    pthread_t threads[MAX_CONNECTIONS];
    pthread_barrier_init(&start_storm, NULL, (unsigned)connections + 1);
    for (long k = 0; k < connections; k++) {
        struct worker *w = &workers[k];
        w->index = (int)k;
        w->sessions = sessions / connections + (k < sessions % connections ? 1 : 0);
        w->decisions = w->sessions > 0 ? decisions / connections + (k < decisions % connections ? 1 : 0) : 0;
        w->rng = (uint64_t)seed * 1000003u + (uint64_t)k;
        w->paths = calloc((size_t)w->sessions + 1, sizeof(char *));
        w->activate_ns = malloc(sizeof(int64_t) * ((size_t)w->decisions + 1));
        w->deactivate_ns = malloc(sizeof(int64_t) * ((size_t)w->decisions + 1));
        if (w->paths == NULL || w->activate_ns == NULL || w->deactivate_ns == NULL) return 1;
    }
    int64_t registration_started = bench_now_ns();
    for (long k = 0; k < connections; k++) pthread_create(&threads[k], NULL, run_worker, &workers[k]);
    pthread_barrier_wait(&start_storm);
    double registration_s = (double)(bench_now_ns() - registration_started) / 1e9;
    int failed = 0;
    for (long k = 0; k < connections; k++) failed |= workers[k].failed;
    printf("registered sessions=%ld connections=%ld seconds=%.3f per_second=%.0f\n", sessions, connections,
           registration_s, registration_s > 0 ? (double)sessions / registration_s : 0);
    fflush(stdout);
    storm_started = bench_now_ns();
    pthread_barrier_wait(&start_storm);
    for (long k = 0; k < connections; k++) pthread_join(threads[k], NULL);
    for (long k = 0; k < connections; k++) failed |= workers[k].failed;
    if (failed) return 1;

    if (decisions > 0) {
        long acts = 0, deacts = 0, act_refused = 0, deact_refused = 0, signals = 0;
        for (long k = 0; k < connections; k++) {
            acts += workers[k].activates;
            deacts += workers[k].deactivates;
            act_refused += workers[k].activate_refused;
            deact_refused += workers[k].deactivate_refused;
            signals += workers[k].signals;
        }
        int64_t *all_act = malloc(sizeof(int64_t) * ((size_t)acts + 1));
        int64_t *all_deact = malloc(sizeof(int64_t) * ((size_t)deacts + 1));
        long a = 0, d = 0;
        for (long k = 0; k < connections; k++) {
            memcpy(all_act + a, workers[k].activate_ns, sizeof(int64_t) * (size_t)workers[k].activates);
            a += workers[k].activates;
            memcpy(all_deact + d, workers[k].deactivate_ns, sizeof(int64_t) * (size_t)workers[k].deactivates);
            d += workers[k].deactivates;
        }
        double storm_s = (double)(storm_ended - storm_started) / 1e9;
        printf("storm decisions=%ld seconds=%.3f per_second=%.0f signals=%ld\n", acts + deacts, storm_s,
               storm_s > 0 ? (double)(acts + deacts) / storm_s : 0, signals);
        summary("activate", all_act, acts, act_refused);
        summary("deactivate", all_deact, deacts, deact_refused);
        printf("refused");
        struct worker total; // the error counts of all workers, merged
        memset(&total, 0, sizeof total);
        for (long k = 0; k < connections; k++) {
            for (int j = 0; j < MAX_ERROR_NAMES && workers[k].error_names[j][0] != '\0'; j++) {
                for (long c = 0; c < workers[k].error_counts[j]; c++) count_error(&total, workers[k].error_names[j]);
            }
        }
        for (int i = 0; i < MAX_ERROR_NAMES && total.error_names[i][0] != '\0'; i++)
            printf(" %s=%ld", total.error_names[i], total.error_counts[i]);
        printf("\n");
        fflush(stdout);
    }
    if (hold) {
        puts("holding");
        fflush(stdout);
        int got;
        sigwait(&stop, &got);
    }
    for (long k = 0; k < connections; k++) {
        if (workers[k].conn != NULL) {
            dbus_connection_close(workers[k].conn);
            dbus_connection_unref(workers[k].conn);
        }
    }
    return 0;
}
