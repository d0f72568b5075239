// bench-pulse-watch: one libpulse client that sees every playback stream's events with the stream's
// volume at each, timestamped on CLOCK_MONOTONIC as they arrive (the same clock as Python's
// time.monotonic()), for the latency benchmarks of issue 14 (Benchmarks/audio-decision.sh).
//
//   bench-pulse-watch        (the server as every libpulse client finds it: PULSE_SERVER, ...)
//
// Output (stdout, one line each, flushed):
//   ready
//   event <ns> new|change|remove <index>
//   event <ns> sink-remove <sink index>     (a sink going away: Benchmarks/sink-loss.py)
//   info <ns> <index> <max volume> <mute> <corked> <bench id>
// An `info` line follows each new/change event: the answer to pa_context_get_sink_input_info
// sent when the event arrived. The server answers requests and sends events over one
// connection, in order: a `change` event that arrives before an info reply happened before the
// state that reply shows. So the event that made a volume visible is the last `change` event of
// its stream read before the first `info` showing that volume. <bench id> is the stream's
// `mprisd.bench` property ("-" if none).
#include <pulse/pulseaudio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void got_info(pa_context *c, const pa_sink_input_info *info, int eol, void *userdata) {
    (void)c; (void)userdata;
    if (eol != 0 || info == NULL) return;
    const char *id = pa_proplist_gets(info->proplist, "mprisd.bench");
    printf("info %lld %u %u %d %d %s\n", (long long)now_ns(), info->index, pa_cvolume_max(&info->volume),
           info->mute, info->corked, id ? id : "-");
    fflush(stdout);
}

static void got_event(pa_context *c, pa_subscription_event_type_t type, uint32_t index, void *userdata) {
    (void)userdata;
    int64_t at = now_ns();
    if ((type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK) == PA_SUBSCRIPTION_EVENT_SINK) {
        if ((type & PA_SUBSCRIPTION_EVENT_TYPE_MASK) == PA_SUBSCRIPTION_EVENT_REMOVE) {
            printf("event %lld sink-remove %u\n", (long long)at, index);
            fflush(stdout);
        }
        return;
    }
    if ((type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK) != PA_SUBSCRIPTION_EVENT_SINK_INPUT) return;
    const char *what = "change";
    switch (type & PA_SUBSCRIPTION_EVENT_TYPE_MASK) {
    case PA_SUBSCRIPTION_EVENT_NEW: what = "new"; break;
    case PA_SUBSCRIPTION_EVENT_REMOVE: what = "remove"; break;
    default: break;
    }
    printf("event %lld %s %u\n", (long long)at, what, index);
    fflush(stdout);
    if ((type & PA_SUBSCRIPTION_EVENT_TYPE_MASK) != PA_SUBSCRIPTION_EVENT_REMOVE) {
        pa_operation *o = pa_context_get_sink_input_info(c, index, got_info, NULL);
        if (o) pa_operation_unref(o);
    }
}

static void subscribed(pa_context *c, int success, void *userdata) {
    (void)c; (void)userdata;
    if (!success) {
        fprintf(stderr, "bench-pulse-watch: subscribe failed\n");
        exit(1);
    }
    printf("ready\n");
    fflush(stdout);
}

static void state_changed(pa_context *c, void *userdata) {
    pa_mainloop_api *api = userdata;
    switch (pa_context_get_state(c)) {
    case PA_CONTEXT_READY: {
        pa_context_set_subscribe_callback(c, got_event, NULL);
        pa_operation *o = pa_context_subscribe(c, PA_SUBSCRIPTION_MASK_SINK_INPUT | PA_SUBSCRIPTION_MASK_SINK, subscribed, NULL);
        if (o) pa_operation_unref(o);
        break;
    }
    case PA_CONTEXT_FAILED:
    case PA_CONTEXT_TERMINATED:
        fprintf(stderr, "bench-pulse-watch: %s\n", pa_strerror(pa_context_errno(c)));
        api->quit(api, 1);
        break;
    default:
        break;
    }
}

int main(void) {
    pa_mainloop *loop = pa_mainloop_new();
    if (loop == NULL) return 1;
    pa_mainloop_api *api = pa_mainloop_get_api(loop);
    pa_context *c = pa_context_new(api, "bench-pulse-watch");
    if (c == NULL) return 1;
    pa_context_set_state_callback(c, state_changed, api);
    if (pa_context_connect(c, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
        fprintf(stderr, "bench-pulse-watch: %s\n", pa_strerror(pa_context_errno(c)));
        return 1;
    }
    int status = 1;
    pa_mainloop_run(loop, &status);
    pa_context_unref(c);
    pa_mainloop_free(loop);
    return status;
}
