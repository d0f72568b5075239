// bench-pulse-streams: many real playback streams at once, for the inventory and idle benchmarks
// of issue 14 (Benchmarks/audio-inventory.sh, audio-idle.sh).
//
//   bench-pulse-streams [--streams 200] [--per-client 10] [--corked] [--role music] [--sink NAME]
//
// Both servers take at most 64 clients (PulseAudio's native protocol, pipewire-pulse's
// max-clients): 200 paplay processes cannot all connect. So this one process opens
// streams/per-client libpulse clients (each named "bench-streams-K") with per-client playback
// streams each (media.name "bench stream N", media.role ROLE, property mprisd.bench=N),
// 44.1 kHz s16 stereo, fed with silence as the server asks (or created corked: paused streams
// that the server never asks to feed), on sink NAME (default: the server's default sink).
// Prints "ready <streams>" once every stream is PA_STREAM_READY, then plays until SIGTERM/SIGINT or until a client or stream fails.
#include "bench_pulse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int total = 200, per_client = 10, corked = 0, ready_streams = 0, announced = 0;
static const char *role = "music", *sink = NULL;
static const pa_sample_spec spec = {.format = PA_SAMPLE_S16LE, .rate = 44100, .channels = 2};

static void stream_state(pa_stream *s, void *userdata) {
    (void)userdata;
    switch (pa_stream_get_state(s)) {
    case PA_STREAM_READY:
        if (++ready_streams == total && !announced) {
            announced = 1;
            printf("ready %d\n", total);
            fflush(stdout);
        }
        break;
    case PA_STREAM_FAILED:
        fprintf(stderr, "bench-pulse-streams: a stream failed after %d ready: %s\n", ready_streams,
                pa_strerror(pa_context_errno(pa_stream_get_context(s))));
        bench_pulse_quit(1);
        break;
    default:
        break;
    }
}

static int connect_client(int first);

/// A client is ready: the next one connects, and this one makes its streams.
static void connected(pa_context *c, void *userdata) {
    int first = (int)(long)userdata;
    // One client at a time: twenty connecting at once were refused by PulseAudio 16.
    if (first + per_client < total && connect_client(first + per_client) < 0) { bench_pulse_quit(1); return; }
    for (int i = first; i < first + per_client && i < total; i++) {
        char name[64], id[16];
        snprintf(name, sizeof name, "bench stream %d", i);
        snprintf(id, sizeof id, "%d", i);
        pa_proplist *props = pa_proplist_new();
        pa_proplist_sets(props, PA_PROP_MEDIA_ROLE, role);
        pa_proplist_sets(props, "mprisd.bench", id);
        pa_stream *s = pa_stream_new_with_proplist(c, name, &spec, NULL, props);
        pa_proplist_free(props);
        if (s == NULL) { bench_pulse_quit(1); return; }
        pa_stream_set_state_callback(s, stream_state, NULL);
        pa_stream_set_write_callback(s, bench_pulse_feed_silence, NULL);
        // Half a second of buffer: the server asks for more a few times a second, not more.
        pa_buffer_attr attr = {.maxlength = (uint32_t)-1, .tlength = (uint32_t)pa_usec_to_bytes(500000, &spec),
                               .prebuf = (uint32_t)-1, .minreq = (uint32_t)-1, .fragsize = (uint32_t)-1};
        pa_stream_flags_t flags = PA_STREAM_ADJUST_LATENCY | (corked ? PA_STREAM_START_CORKED : 0);
        if (pa_stream_connect_playback(s, sink, &attr, flags, NULL, NULL) < 0) { bench_pulse_quit(1); return; }
    }
}

// Connects the client of the streams from `first` on; its streams are made once it is ready.
static int connect_client(int first) {
    char name[64];
    snprintf(name, sizeof name, "bench-streams-%d", first / per_client);
    return bench_pulse_connect(name, connected, (void *)(long)first) ? 0 : -1;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--streams") == 0 && i + 1 < argc) total = atoi(argv[++i]);
        else if (strcmp(argv[i], "--per-client") == 0 && i + 1 < argc) per_client = atoi(argv[++i]);
        else if (strcmp(argv[i], "--role") == 0 && i + 1 < argc) role = argv[++i];
        else if (strcmp(argv[i], "--sink") == 0 && i + 1 < argc) sink = argv[++i];
        else if (strcmp(argv[i], "--corked") == 0) corked = 1;
        else { fprintf(stderr, "usage: bench-pulse-streams [--streams N] [--per-client K] [--corked] [--role R] [--sink S]\n"); return 64; }
    }
    if (total < 1 || per_client < 1) { fprintf(stderr, "bench-pulse-streams: counts must be positive\n"); return 64; }
    if (bench_pulse_init("bench-pulse-streams") == NULL) return 1;
    bench_pulse_quit_on_signals();
    if (connect_client(0) < 0) return 1;
    int status = bench_pulse_run();
    bench_pulse_end();  // every client closed: the server removes their streams
    return status;
}
