// bench-soak: drives a long stream of D-Bus calls at one process and samples its resident memory.
//
//   bench-soak mpris    --pid PID [--dest org.mpris.MediaPlayer2.soak] [--calls 1000000]
//                       [--warmup 50000] [--sample-every 10000]
//   bench-soak sessions --pid PID [--calls 100000] [--warmup 20000] [--sample-every 2000]
//                       [--clients 4] [--sessions 8] [--reregister-every 100]
//                       [--reconnect-every 10000] [--seed 1]
//
// `mpris`: calls a running MPRIS player over and over, in cycles of six calls: Get PlaybackStatus,
// GetAll org.mpris.MediaPlayer2.Player, Get Position, PlayPause, PlayPause, Seek(0). Every call
// must succeed (an error reply exits non-zero).
//
// `sessions`: against the policy daemon (org.mprisd.AudioPolicy). `--clients` connections each
// register `--sessions` sessions of assorted configurations (exclusive playback, playback and
// ambient ducking others, mixable playback, a voice chat, solo ambient, spoken audio); then each
// call picks a seeded-random session and activates it (when it is inactive here) or deactivates
// it (with notifyOthers half of the time). Every `--reregister-every` calls one random session is
// unregistered and registered anew (a new object); every `--reconnect-every` calls one client
// closes its connection (the daemon removes its sessions when its name vanishes) and connects
// again, registering its sessions anew. Policy refusals (org.mprisd.AudioPolicy1.Error.*) are
// expected under such a storm and counted by name; any other error exits non-zero. The daemon's
// unicast signals to the clients are read and dropped after every call.
//
// In both modes `--warmup` calls come first (not counted in the rate), then `--calls` measured
// calls. VmRSS of `--pid` (from /proc/PID/status) is read after the warm-up and every
// `--sample-every` measured calls.
//
// Output: one `sample` line per reading, then one `result` line:
//   sample calls=<n> rss_kb=<k> seconds=<s>
//   result mode=<m> warmup=<w> calls=<n> seconds=<s> calls_per_s=<r> rss_start_kb=<a>
//          rss_end_kb=<b> growth_kb=<b-a> rss_max_kb=<m> slope_kb_per_100k=<fit> refused=<n>
// (slope: least-squares fit of the samples' RSS against calls, per 100,000 calls) and, in sessions
// mode, one `refused name=<error> count=<n>` line per refusal name.
#include "bench_dbus.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CALL_TIMEOUT_MS 20000
#define MAX_CLIENTS 32
#define MAX_SESSIONS 64
#define MAX_REFUSALS 16

static const char *policy_name = "org.mprisd.AudioPolicy";
static const char *policy_path = "/org/mprisd/AudioPolicy";
static const char *policy_iface = "org.mprisd.AudioPolicy1";
static const char *session_iface = "org.mprisd.AudioSession1";
static const char *mpris_path = "/org/mpris/MediaPlayer2";
static const char *player_iface = "org.mpris.MediaPlayer2.Player";
static const char *props_iface = "org.freedesktop.DBus.Properties";

static void die(const char *what, const char *detail) {
    fprintf(stderr, "bench-soak: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static void usage(FILE *to) {
    fprintf(to, "usage: bench-soak mpris --pid PID [--dest NAME] [--calls N] [--warmup N] [--sample-every N]\n"
                "       bench-soak sessions --pid PID [--calls N] [--warmup N] [--sample-every N] [--clients N]\n"
                "                  [--sessions N] [--reregister-every N] [--reconnect-every N] [--seed N]\n");
}

static long parse_count(const char *option, const char *text, long min, long max) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > max) {
        fprintf(stderr, "bench-soak: bad value for %s: %s\n", option, text);
        exit(2);
    }
    return value;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

// --- Memory samples ----------------------------------------------------------------------------

static long target_pid;

/// VmRSS of the target in kB; exits if the target is gone.
static long rss_kb(void) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", target_pid);
    FILE *file = fopen(path, "r");
    if (!file) die("the target process is gone", path);
    long value = -1;
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            value = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(file);
    if (value < 0) die("no VmRSS in", path);
    return value;
}

struct samples {
    long start_kb, last_kb, max_kb;
    double n, sx, sy, sxx, sxy;  // least-squares sums over (calls, rss)
    double t0;
};

static void sample(struct samples *s, long calls) {
    long kb = rss_kb();
    if (s->n == 0) s->start_kb = kb;
    s->last_kb = kb;
    if (kb > s->max_kb) s->max_kb = kb;
    double x = (double)calls, y = (double)kb;
    s->n += 1; s->sx += x; s->sy += y; s->sxx += x * x; s->sxy += x * y;
    printf("sample calls=%ld rss_kb=%ld seconds=%.1f\n", calls, kb, now_s() - s->t0);
    fflush(stdout);
}

static double slope_per_100k(const struct samples *s) {
    double d = s->n * s->sxx - s->sx * s->sx;
    return d > 0 ? 100000.0 * (s->n * s->sxy - s->sx * s->sy) / d : 0;
}

static void report(const char *mode, long warmup, long calls, double seconds,
                   const struct samples *s, long refused) {
    printf("result mode=%s warmup=%ld calls=%ld seconds=%.1f calls_per_s=%.0f rss_start_kb=%ld rss_end_kb=%ld "
           "growth_kb=%ld rss_max_kb=%ld slope_kb_per_100k=%.1f refused=%ld\n",
           mode, warmup, calls, seconds, seconds > 0 ? (double)calls / seconds : 0, s->start_kb, s->last_kb,
           s->last_kb - s->start_kb, s->max_kb, slope_per_100k(s), refused);
}

// --- Calls -------------------------------------------------------------------------------------

static DBusConnection *connect_bus(void) {
    DBusConnection *connection = bench_dbus_connect("bench-soak");
    if (!connection) exit(1);
    return connection;
}

static void disconnect_bus(DBusConnection *connection) {
    dbus_connection_close(connection);
    dbus_connection_unref(connection);
}

/// Drops every message the bus queued for us (the daemon's unicast signals).
static void drain(DBusConnection *connection) {
    DBusMessage *message;
    while ((message = dbus_connection_pop_message(connection)) != NULL) dbus_message_unref(message);
}

static DBusMessage *new_call(const char *dest, const char *path, const char *iface, const char *member) {
    DBusMessage *message = dbus_message_new_method_call(dest, path, iface, member);
    if (!message) die("out of memory", NULL);
    return message;
}

/// Sends `call` (consumed) and waits for the reply. Returns the reply (caller unrefs) or NULL with
/// `error` set for an error reply.
static DBusMessage *send_call(DBusConnection *connection, DBusMessage *call, DBusError *error) {
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(connection, call, CALL_TIMEOUT_MS, error);
    dbus_message_unref(call);
    return reply;
}

/// A call that must succeed; its reply is dropped.
static void must(DBusConnection *connection, DBusMessage *call, const char *what) {
    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = send_call(connection, call, &error);
    if (!reply) {
        fprintf(stderr, "bench-soak: %s failed: %s: %s\n", what, error.name, error.message);
        exit(1);
    }
    dbus_message_unref(reply);
}

// --- MPRIS mode --------------------------------------------------------------------------------

static DBusMessage *property_call(const char *dest, const char *member, const char *property) {
    DBusMessage *call = new_call(dest, mpris_path, props_iface, member);
    if (property)
        dbus_message_append_args(call, DBUS_TYPE_STRING, &player_iface, DBUS_TYPE_STRING, &property,
                                 DBUS_TYPE_INVALID);
    else
        dbus_message_append_args(call, DBUS_TYPE_STRING, &player_iface, DBUS_TYPE_INVALID);
    return call;
}

/// The `index`-th call of the cycle.
static void mpris_call(DBusConnection *connection, const char *dest, long index) {
    switch (index % 6) {
    case 0: must(connection, property_call(dest, "Get", "PlaybackStatus"), "Get PlaybackStatus"); break;
    case 1: must(connection, property_call(dest, "GetAll", NULL), "GetAll"); break;
    case 2: must(connection, property_call(dest, "Get", "Position"), "Get Position"); break;
    case 3:
    case 4: must(connection, new_call(dest, mpris_path, player_iface, "PlayPause"), "PlayPause"); break;
    default: {
        DBusMessage *call = new_call(dest, mpris_path, player_iface, "Seek");
        dbus_int64_t offset = 0;
        dbus_message_append_args(call, DBUS_TYPE_INT64, &offset, DBUS_TYPE_INVALID);
        must(connection, call, "Seek");
    }
    }
    drain(connection);
}

static void wait_for_name(DBusConnection *connection, const char *name) {
    for (int i = 0; i < 1200; i++) {  // 60 s: a target under valgrind starts slowly
        DBusError error;
        dbus_error_init(&error);
        if (dbus_bus_name_has_owner(connection, name, &error)) return;
        dbus_error_free(&error);
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    die("nobody owns", name);
}

static int run_mpris(const char *dest, long calls, long warmup, long every) {
    DBusConnection *connection = connect_bus();
    wait_for_name(connection, dest);
    for (long i = 0; i < warmup; i++) mpris_call(connection, dest, i);
    struct samples s = {0};
    s.t0 = now_s();
    sample(&s, 0);
    for (long i = 0; i < calls; i++) {
        mpris_call(connection, dest, warmup + i);
        if ((i + 1) % every == 0) sample(&s, i + 1);
    }
    double seconds = now_s() - s.t0;
    if (calls % every != 0) sample(&s, calls);
    report("mpris", warmup, calls, seconds, &s, 0);
    disconnect_bus(connection);
    return 0;
}

// --- Sessions mode -----------------------------------------------------------------------------

struct config {
    const char *category, *mode, *option;
};

/// Assorted configurations: who interrupts, who ducks, who mixes.
static const struct config configs[] = {
    {"playback", NULL, NULL},
    {"playback", NULL, "duckOthers"},
    {"ambient", NULL, NULL},
    {"playback", NULL, "mixWithOthers"},
    {"playAndRecord", "voiceChat", NULL},
    {"soloAmbient", NULL, NULL},
    {"ambient", NULL, "duckOthers"},
    {"playback", "spokenAudio", NULL},
};
#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

struct session {
    char path[128];
    int active;
};

struct client {
    DBusConnection *connection;
    struct session sessions[MAX_SESSIONS];
};

static struct client clients[MAX_CLIENTS];
static int client_count = 4, sessions_per_client = 8;

struct refusal {
    char name[128];
    long count;
};
static struct refusal refusals[MAX_REFUSALS];
static long refused_total;

static void refused(const char *name) {
    refused_total++;
    for (int i = 0; i < MAX_REFUSALS; i++) {
        if (refusals[i].name[0] == '\0') snprintf(refusals[i].name, sizeof refusals[i].name, "%s", name);
        if (strcmp(refusals[i].name, name) == 0) {
            refusals[i].count++;
            return;
        }
    }
}

static uint64_t rng_state;
static uint64_t next_random(void) {  // xorshift64*
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

/// Appends one `{sv}` entry with a string, a bool or (option != NULL) an `as` of one element.
static void dict_string(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter entry, variant;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

static void dict_bool(DBusMessageIter *dict, const char *key, int value) {
    DBusMessageIter entry, variant;
    dbus_bool_t b = value ? TRUE : FALSE;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "b", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_BOOLEAN, &b);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

static void dict_strings(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter entry, variant, array;
    const char *k = key;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &k);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "as", &variant);
    dbus_message_iter_open_container(&variant, DBUS_TYPE_ARRAY, "s", &array);
    dbus_message_iter_append_basic(&array, DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&variant, &array);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

/// Registers session `index` of client `k` and stores its object path.
static void register_session(int k, int index) {
    struct client *client = &clients[k];
    const struct config *config = &configs[(k * sessions_per_client + index) % CONFIG_COUNT];
    DBusMessage *call = new_call(policy_name, policy_path, policy_iface, "Register");
    DBusMessageIter args, dict;
    char name[64];
    snprintf(name, sizeof name, "soak-c%d-s%d", k, index);
    dbus_message_iter_init_append(call, &args);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    dict_string(&dict, "category", config->category);
    if (config->mode) dict_string(&dict, "mode", config->mode);
    if (config->option) dict_strings(&dict, "options", config->option);
    dict_string(&dict, "name", name);
    dbus_message_iter_close_container(&args, &dict);

    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = send_call(client->connection, call, &error);
    if (!reply) {
        fprintf(stderr, "bench-soak: Register failed: %s: %s\n", error.name, error.message);
        exit(1);
    }
    const char *path = NULL;
    if (!dbus_message_get_args(reply, &error, DBUS_TYPE_OBJECT_PATH, &path, DBUS_TYPE_INVALID))
        die("Register returned no object path", error.message);
    snprintf(client->sessions[index].path, sizeof client->sessions[index].path, "%s", path);
    client->sessions[index].active = 0;
    dbus_message_unref(reply);
    drain(client->connection);
}

static void unregister_session(int k, int index) {
    struct client *client = &clients[k];
    must(client->connection, new_call(policy_name, client->sessions[index].path, session_iface, "Unregister"),
         "Unregister");
    drain(client->connection);
}

static void connect_client(int k) {
    clients[k].connection = connect_bus();
    for (int i = 0; i < sessions_per_client; i++) register_session(k, i);
}

/// One activation or deactivation of a random session.
static void session_call(void) {
    int k = (int)(next_random() % (uint64_t)client_count);
    int i = (int)(next_random() % (uint64_t)sessions_per_client);
    struct client *client = &clients[k];
    struct session *session = &client->sessions[i];
    int activate = !session->active;
    DBusMessage *call = new_call(policy_name, session->path, session_iface, activate ? "Activate" : "Deactivate");
    DBusMessageIter args, dict;
    dbus_message_iter_init_append(call, &args);
    dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
    if (!activate && (next_random() & 1)) dict_bool(&dict, "notifyOthers", 1);
    dbus_message_iter_close_container(&args, &dict);

    DBusError error;
    dbus_error_init(&error);
    DBusMessage *reply = send_call(client->connection, call, &error);
    if (reply) {
        dbus_message_unref(reply);
        session->active = activate;
    } else if (error.name && strncmp(error.name, "org.mprisd.AudioPolicy1.Error.", 30) == 0) {
        refused(error.name + 30);
        if (!activate) session->active = 0;  // a refused deactivation deactivates all the same
        dbus_error_free(&error);
    } else {
        fprintf(stderr, "bench-soak: %s %s failed: %s: %s\n", activate ? "Activate" : "Deactivate",
                session->path, error.name, error.message);
        exit(1);
    }
    drain(client->connection);
}

static void session_step(long n, long reregister_every, long reconnect_every) {
    session_call();
    if (reregister_every > 0 && n % reregister_every == 0) {
        int k = (int)(next_random() % (uint64_t)client_count);
        int i = (int)(next_random() % (uint64_t)sessions_per_client);
        unregister_session(k, i);
        register_session(k, i);
    }
    if (reconnect_every > 0 && n % reconnect_every == 0) {
        int k = (int)(next_random() % (uint64_t)client_count);
        disconnect_bus(clients[k].connection);
        connect_client(k);
    }
}

static int run_sessions(long calls, long warmup, long every, long reregister_every, long reconnect_every) {
    DBusConnection *probe = connect_bus();
    wait_for_name(probe, policy_name);
    disconnect_bus(probe);
    for (int k = 0; k < client_count; k++) connect_client(k);
    for (long i = 1; i <= warmup; i++) session_step(i, reregister_every, reconnect_every);
    struct samples s = {0};
    s.t0 = now_s();
    sample(&s, 0);
    for (long i = 1; i <= calls; i++) {
        session_step(warmup + i, reregister_every, reconnect_every);
        if (i % every == 0) sample(&s, i);
    }
    double seconds = now_s() - s.t0;
    if (calls % every != 0) sample(&s, calls);
    report("sessions", warmup, calls, seconds, &s, refused_total);
    for (int i = 0; i < MAX_REFUSALS && refusals[i].name[0]; i++)
        printf("refused name=%s count=%ld\n", refusals[i].name, refusals[i].count);
    for (int k = 0; k < client_count; k++) disconnect_bus(clients[k].connection);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *mode = argv[1];
    int sessions_mode = strcmp(mode, "sessions") == 0;
    if (!sessions_mode && strcmp(mode, "mpris") != 0) {
        usage(stderr);
        return 2;
    }
    const char *dest = "org.mpris.MediaPlayer2.soak";
    long calls = sessions_mode ? 100000 : 1000000;
    long warmup = sessions_mode ? 20000 : 50000;
    long every = sessions_mode ? 2000 : 10000;
    long reregister_every = 100, reconnect_every = 10000, seed = 1;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "bench-soak: %s needs a value\n", arg);
            usage(stderr);
            return 2;
        }
        const char *value = argv[++i];
        if (strcmp(arg, "--pid") == 0) target_pid = parse_count(arg, value, 1, 1L << 30);
        else if (strcmp(arg, "--dest") == 0) dest = value;
        else if (strcmp(arg, "--calls") == 0) calls = parse_count(arg, value, 1, 1000000000L);
        else if (strcmp(arg, "--warmup") == 0) warmup = parse_count(arg, value, 0, 1000000000L);
        else if (strcmp(arg, "--sample-every") == 0) every = parse_count(arg, value, 1, 1000000000L);
        else if (sessions_mode && strcmp(arg, "--clients") == 0) client_count = (int)parse_count(arg, value, 1, MAX_CLIENTS);
        else if (sessions_mode && strcmp(arg, "--sessions") == 0) sessions_per_client = (int)parse_count(arg, value, 1, MAX_SESSIONS);
        else if (sessions_mode && strcmp(arg, "--reregister-every") == 0) reregister_every = parse_count(arg, value, 0, 1000000000L);
        else if (sessions_mode && strcmp(arg, "--reconnect-every") == 0) reconnect_every = parse_count(arg, value, 0, 1000000000L);
        else if (sessions_mode && strcmp(arg, "--seed") == 0) seed = parse_count(arg, value, 1, 1000000000L);
        else {
            fprintf(stderr, "bench-soak: unknown option %s\n", arg);
            usage(stderr);
            return 2;
        }
    }
    if (target_pid == 0) {
        fprintf(stderr, "bench-soak: --pid is required\n");
        return 2;
    }
    rng_state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL;
    return sessions_mode ? run_sessions(calls, warmup, every, reregister_every, reconnect_every)
                         : run_mpris(dest, calls, warmup, every);
}
