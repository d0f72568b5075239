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
#include <pulse/pulseaudio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
static int count, connected;
static pa_mainloop_api *api;
static const pa_sample_spec format = {.format = PA_SAMPLE_S16LE, .rate = 44100, .channels = 2};
static char pending[256];
static size_t pending_length;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/// The server asks for playback data (pa_stream_begin_write / pa_stream_write): silence.
static void feed(pa_stream *s, size_t nbytes, void *userdata) {
    (void)userdata;
    while (nbytes > 0) {
        void *data = NULL;
        size_t n = nbytes;
        if (pa_stream_begin_write(s, &data, &n) < 0 || data == NULL) return;
        memset(data, 0, n);
        pa_stream_write(s, data, n, NULL, 0, PA_SEEK_RELATIVE);
        nbytes -= n < nbytes ? n : nbytes;
    }
}

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
        printf("opened %d %lld\n", i, (long long)now_ns());
        fflush(stdout);
        break;
    case PA_STREAM_FAILED:
        fprintf(stderr, "bench-implicit-trigger: stream %d failed: %s\n", i,
                pa_strerror(pa_context_errno(pa_stream_get_context(s))));
        api->quit(api, 1);
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
        pa_stream_set_write_callback(s, feed, NULL);
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
    printf("closed %d %lld\n", i, (long long)now_ns());
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
static void stdin_ready(pa_mainloop_api *a, pa_io_event *e, int fd, pa_io_event_flags_t flags, void *userdata) {
    (void)e; (void)flags; (void)userdata;
    ssize_t n = read(fd, pending + pending_length, sizeof pending - 1 - pending_length);
    if (n <= 0) {
        a->quit(a, 0);
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

static void context_state(pa_context *c, void *userdata) {
    (void)userdata;
    switch (pa_context_get_state(c)) {
    case PA_CONTEXT_READY:
        if (++connected == count) {
            printf("ready\n");
            fflush(stdout);
            api->io_new(api, STDIN_FILENO, PA_IO_EVENT_INPUT, stdin_ready, NULL);
        }
        break;
    case PA_CONTEXT_FAILED:
    case PA_CONTEXT_TERMINATED:
        fprintf(stderr, "bench-implicit-trigger: %s\n", pa_strerror(pa_context_errno(c)));
        api->quit(api, 1);
        break;
    default:
        break;
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
    pa_mainloop *loop = pa_mainloop_new();
    if (loop == NULL) return 1;
    api = pa_mainloop_get_api(loop);
    for (int i = 1; i < argc; i++) {
        struct spec *sp = &specs[count];
        if (parse(argv[i], sp) < 0) {
            fprintf(stderr, "bench-implicit-trigger: bad SPEC '%s' (capture|playback,APP[,ROLE])\n", argv[i]);
            return 64;
        }
        sp->context = pa_context_new(api, sp->app);
        if (sp->context == NULL) return 1;
        pa_context_set_state_callback(sp->context, context_state, NULL);
        if (pa_context_connect(sp->context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
            fprintf(stderr, "bench-implicit-trigger: %s\n", pa_strerror(pa_context_errno(sp->context)));
            return 1;
        }
        count++;
    }
    int status = 1;
    pa_mainloop_run(loop, &status);
    for (int i = 0; i < count; i++) {
        if (specs[i].stream) close_stream(i);
        pa_context_set_state_callback(specs[i].context, NULL, NULL); // ending is no failure
        pa_context_disconnect(specs[i].context);
        pa_context_unref(specs[i].context);
    }
    pa_mainloop_free(loop);
    return status;
}
