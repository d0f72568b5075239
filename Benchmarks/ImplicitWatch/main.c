// bench-implicit-watch: one libpulse client that sees every playback stream (sink input) and every
// capture stream (source output) come, change and go, timestamped on CLOCK_MONOTONIC as the events
// arrive (the same clock as Python's time.monotonic()), for the implicit-session benchmarks of
// issue 15 (Benchmarks/implicit-call.sh, implicit-prompt.sh). A triggering stream's `new` event
// here is its appearance *on the server*, as the daemon (another subscriber) sees it: the
// triggering client's own connect time is not counted.
//
//   bench-implicit-watch     (the server as every libpulse client finds it: PULSE_SERVER, ...)
//
// Output (stdout, one line each, flushed):
//   ready
//   event <ns> in|out new|change|remove <index>          (in: sink input, out: source output)
//   info <ns> in|out <index> <max volume> <mute> <corked> <application.name>
// An `info` line follows each new/change event: the answer to pa_context_get_sink_input_info /
// pa_context_get_source_output_info sent when the event arrived. Events and replies share one
// connection, in order: the event that made a state visible is the last `change` of that stream
// read before the first `info` showing it. The application name is the rest of the line.
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

static void print_info(const char *facility, uint32_t index, const pa_cvolume *volume, int mute, int corked,
                       pa_proplist *props) {
    const char *app = pa_proplist_gets(props, PA_PROP_APPLICATION_NAME);
    printf("info %lld %s %u %u %d %d %s\n", (long long)now_ns(), facility, index, pa_cvolume_max(volume), mute,
           corked, app ? app : "-");
    fflush(stdout);
}

/// pa_context_get_sink_input_info's answer.
static void got_sink_input(pa_context *c, const pa_sink_input_info *info, int eol, void *userdata) {
    (void)c; (void)userdata;
    if (eol != 0 || info == NULL) return;
    print_info("in", info->index, &info->volume, info->mute, info->corked, info->proplist);
}

/// pa_context_get_source_output_info's answer.
static void got_source_output(pa_context *c, const pa_source_output_info *info, int eol, void *userdata) {
    (void)c; (void)userdata;
    if (eol != 0 || info == NULL) return;
    print_info("out", info->index, &info->volume, info->mute, info->corked, info->proplist);
}

static void got_event(pa_context *c, pa_subscription_event_type_t type, uint32_t index, void *userdata) {
    (void)userdata;
    int64_t at = now_ns();
    pa_subscription_event_type_t facility = type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK;
    if (facility != PA_SUBSCRIPTION_EVENT_SINK_INPUT && facility != PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT) return;
    int input = facility == PA_SUBSCRIPTION_EVENT_SINK_INPUT;
    const char *what = "change";
    switch (type & PA_SUBSCRIPTION_EVENT_TYPE_MASK) {
    case PA_SUBSCRIPTION_EVENT_NEW: what = "new"; break;
    case PA_SUBSCRIPTION_EVENT_REMOVE: what = "remove"; break;
    default: break;
    }
    printf("event %lld %s %s %u\n", (long long)at, input ? "in" : "out", what, index);
    fflush(stdout);
    if ((type & PA_SUBSCRIPTION_EVENT_TYPE_MASK) == PA_SUBSCRIPTION_EVENT_REMOVE) return;
    pa_operation *o = input ? pa_context_get_sink_input_info(c, index, got_sink_input, NULL)
                            : pa_context_get_source_output_info(c, index, got_source_output, NULL);
    if (o) pa_operation_unref(o);
}

static void subscribed(pa_context *c, int success, void *userdata) {
    (void)c; (void)userdata;
    if (!success) {
        fprintf(stderr, "bench-implicit-watch: subscribe failed\n");
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
        pa_operation *o = pa_context_subscribe(c, PA_SUBSCRIPTION_MASK_SINK_INPUT | PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT,
                                               subscribed, NULL);
        if (o) pa_operation_unref(o);
        break;
    }
    case PA_CONTEXT_FAILED:
    case PA_CONTEXT_TERMINATED:
        fprintf(stderr, "bench-implicit-watch: %s\n", pa_strerror(pa_context_errno(c)));
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
    pa_context *c = pa_context_new(api, "bench-implicit-watch");
    if (c == NULL) return 1;
    pa_context_set_state_callback(c, state_changed, api);
    if (pa_context_connect(c, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
        fprintf(stderr, "bench-implicit-watch: %s\n", pa_strerror(pa_context_errno(c)));
        return 1;
    }
    int status = 1;
    pa_mainloop_run(loop, &status);
    pa_context_unref(c);
    pa_mainloop_free(loop);
    return status;
}
