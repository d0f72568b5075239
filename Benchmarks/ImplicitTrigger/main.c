// bench-implicit-trigger: the app that triggers an implicit session, on command, for the
// benchmarks of issue 15 (Benchmarks/implicit-call.sh, implicit-prompt.sh): real libpulse streams
// named and tagged as real apps name and tag theirs, opened and closed again and again by one
// process (so each round costs no process start, and every stream has this process's pid).
//
//   bench-implicit-trigger SPEC...      SPEC: capture|playback,APPLICATION-NAME[,MEDIA-ROLE]
//   e.g. bench-implicit-trigger 'capture,ZOOM VoiceEngine'   'capture,softphone,phone'
//        bench-implicit-trigger 'playback,maps,navigation'   'playback,Chromium' 'capture,Chromium input'
//
// Each SPEC is one libpulse client (its own pa_context: application.name is the client's) with at
// most one stream at a time, on the server's default sink or source, 44.1 kHz s16 stereo; playback
// is fed with silence, capture is read and dropped. Prints `ready` once every client is connected,
// then reads commands from stdin, one a line:
//   open I    → opened I <ns>   (SPEC number I, from 0: its stream is PA_STREAM_READY)
//   close I   → closed I <ns>   (its stream disconnected)
// Timestamps are CLOCK_MONOTONIC. The benchmarks time from the stream's appearance on the server
// (bench-implicit-watch), not from these. End of stdin ends the program.
#include "bench_clock.h"
#include "bench_pulse.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_SPECS 8

struct spec {
    int capture;
    char app[128];
    char role[64];
    pa_context *context;
    pa_stream *stream;
};

static struct spec specs[MAX_SPECS];
static int count, connected_count;
static const pa_sample_spec format = {.format = PA_SAMPLE_S16LE, .rate = 44100, .channels = 2};
static char pending[256];
static size_t pending_length;

/// Recorded data arrived (pa_stream_peek / pa_stream_drop): dropped.
static void drain(pa_stream *s, size_t nbytes, void *userdata) {
    (void)nbytes; (void)userdata;
    const void *data = NULL;
    size_t n = 0;
    while (pa_stream_readable_size(s) > 0 && pa_stream_peek(s, &data, &n) == 0) {
        if (n == 0) break;
        pa_stream_drop(s);
    }
}

static void stream_state(pa_stream *s, void *userdata) {
    int i = (int)(intptr_t)userdata;
    switch (pa_stream_get_state(s)) {
    case PA_STREAM_READY:
        printf("opened %d %lld\n", i, (long long)bench_now_ns());
        fflush(stdout);
        break;
    case PA_STREAM_FAILED:
        fprintf(stderr, "bench-implicit-trigger: stream %d failed: %s\n", i,
                pa_strerror(pa_context_errno(pa_stream_get_context(s))));
        bench_pulse_quit(1);
        break;
    default:
        break;
    }
}

static int open_stream(int i) {
    struct spec *sp = &specs[i];
    if (sp->stream != NULL) return -1;
    pa_proplist *props = pa_proplist_new();
    if (sp->role[0] != '\0') pa_proplist_sets(props, PA_PROP_MEDIA_ROLE, sp->role);
    pa_stream *s = pa_stream_new_with_proplist(sp->context, sp->capture ? "bench capture" : "bench playback",
                                               &format, NULL, props);
    pa_proplist_free(props);
    if (s == NULL) return -1;
    pa_stream_set_state_callback(s, stream_state, (void *)(intptr_t)i);
    int result;
    if (sp->capture) {
        pa_stream_set_read_callback(s, drain, NULL);
        result = pa_stream_connect_record(s, NULL, NULL, PA_STREAM_NOFLAGS);
    } else {
        pa_stream_set_write_callback(s, bench_pulse_feed_silence, NULL);
        result = pa_stream_connect_playback(s, NULL, NULL, PA_STREAM_NOFLAGS, NULL, NULL);
    }
    if (result < 0) {
        pa_stream_unref(s);
        return -1;
    }
    sp->stream = s;
    return 0;
}

static int close_stream(int i) {
    struct spec *sp = &specs[i];
    if (sp->stream == NULL) return -1;
    pa_stream_set_state_callback(sp->stream, NULL, NULL);
    pa_stream_disconnect(sp->stream);
    pa_stream_unref(sp->stream);
    sp->stream = NULL;
    printf("closed %d %lld\n", i, (long long)bench_now_ns());
    fflush(stdout);
    return 0;
}

static void command(const char *line) {
    int i = -1;
    char verb[16];
    if (sscanf(line, "%15s %d", verb, &i) != 2 || i < 0 || i >= count) {
        fprintf(stderr, "bench-implicit-trigger: bad command: %s\n", line);
        return;
    }
    int failed = strcmp(verb, "open") == 0 ? open_stream(i) : strcmp(verb, "close") == 0 ? close_stream(i) : -1;
    if (failed) fprintf(stderr, "bench-implicit-trigger: cannot %s\n", line);
}

/// stdin is readable (an io event of the mainloop): one or more command lines, or its end.
static void stdin_ready(pa_mainloop_api *api, pa_io_event *e, int fd, pa_io_event_flags_t flags, void *userdata) {
    (void)api; (void)e; (void)flags; (void)userdata;
    ssize_t n = read(fd, pending + pending_length, sizeof pending - 1 - pending_length);
    if (n <= 0) {
        bench_pulse_quit(0);
        return;
    }
    pending_length += (size_t)n;
    pending[pending_length] = '\0';
    char *newline;
    while ((newline = strchr(pending, '\n')) != NULL) {
        *newline = '\0';
        command(pending);
        size_t used = (size_t)(newline - pending) + 1;
        memmove(pending, newline + 1, pending_length - used + 1);
        pending_length -= used;
    }
    if (pending_length == sizeof pending - 1) pending_length = 0; // a line too long: dropped
}

/// A client is ready; once every one is, the commands are read.
static void connected(pa_context *c, void *userdata) {
    (void)c;
    pa_mainloop_api *api = userdata;
    if (++connected_count == count) {
        printf("ready\n");
        fflush(stdout);
        api->io_new(api, STDIN_FILENO, PA_IO_EVENT_INPUT, stdin_ready, NULL);
    }
}

static int parse(const char *text, struct spec *sp) {
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text);
    char *direction = copy, *app = strchr(copy, ',');
    if (app == NULL) return -1;
    *app++ = '\0';
    char *role = strchr(app, ',');
    if (role != NULL) *role++ = '\0';
    if (strcmp(direction, "capture") == 0) sp->capture = 1;
    else if (strcmp(direction, "playback") == 0) sp->capture = 0;
    else return -1;
    if (*app == '\0') return -1;
    snprintf(sp->app, sizeof sp->app, "%s", app);
    snprintf(sp->role, sizeof sp->role, "%s", role ? role : "");
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc - 1 > MAX_SPECS) {
        fprintf(stderr, "usage: bench-implicit-trigger capture|playback,APP[,ROLE]... (at most %d)\n", MAX_SPECS);
        return 64;
    }
    pa_mainloop_api *api = bench_pulse_init("bench-implicit-trigger");
    if (api == NULL) return 1;
    for (int i = 1; i < argc; i++) {
        struct spec *sp = &specs[count];
        if (parse(argv[i], sp) < 0) {
            fprintf(stderr, "bench-implicit-trigger: bad SPEC '%s' (capture|playback,APP[,ROLE])\n", argv[i]);
            return 64;
        }
        sp->context = bench_pulse_connect(sp->app, connected, api);
        if (sp->context == NULL) return 1;
        count++;
    }
    int status = bench_pulse_run();
    for (int i = 0; i < count; i++) {
        if (specs[i].stream) close_stream(i);
    }
    bench_pulse_end();
    return status;
}
