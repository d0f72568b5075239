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
#include "bench_clock.h"
#include "bench_pulse.h"

#include <stdint.h>
#include <stdio.h>

static void got_info(pa_context *c, const pa_sink_input_info *info, int eol, void *userdata) {
    (void)c; (void)userdata;
    if (eol != 0 || info == NULL) return;
    const char *id = pa_proplist_gets(info->proplist, "mprisd.bench");
    printf("info %lld %u %u %d %d %s\n", (long long)bench_now_ns(), info->index, pa_cvolume_max(&info->volume),
           info->mute, info->corked, id ? id : "-");
    fflush(stdout);
}

static void got_event(pa_context *c, pa_subscription_event_type_t type, uint32_t index, void *userdata) {
    (void)userdata;
    int64_t at = bench_now_ns();
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

static void connected(pa_context *c, void *userdata) {
    (void)userdata;
    bench_pulse_subscribe(c, PA_SUBSCRIPTION_MASK_SINK_INPUT | PA_SUBSCRIPTION_MASK_SINK, got_event);
}

int main(void) {
    if (bench_pulse_init("bench-pulse-watch") == NULL) return 1;
    if (bench_pulse_connect("bench-pulse-watch", connected, NULL) == NULL) return 1;
    int status = bench_pulse_run();
    bench_pulse_end();
    return status;
}
