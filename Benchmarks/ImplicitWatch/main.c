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
#include "bench_clock.h"
#include "bench_pulse.h"

#include <stdint.h>
#include <stdio.h>

static void print_info(const char *facility, uint32_t index, const pa_cvolume *volume, int mute, int corked,
                       pa_proplist *props) {
    const char *app = pa_proplist_gets(props, PA_PROP_APPLICATION_NAME);
    printf("info %lld %s %u %u %d %d %s\n", (long long)bench_now_ns(), facility, index, pa_cvolume_max(volume), mute,
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
    int64_t at = bench_now_ns();
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

static void connected(pa_context *c, void *userdata) {
    (void)userdata;
    bench_pulse_subscribe(c, PA_SUBSCRIPTION_MASK_SINK_INPUT | PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT, got_event);
}

int main(void) {
    if (bench_pulse_init("bench-implicit-watch") == NULL) return 1;
    if (bench_pulse_connect("bench-implicit-watch", connected, NULL) == NULL) return 1;
    int status = bench_pulse_run();
    bench_pulse_end();
    return status;
}
