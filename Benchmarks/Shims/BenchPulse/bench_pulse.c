#include "bench_pulse.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A client of the program, kept so that bench_pulse_end can disconnect it.
struct client {
    pa_context *context;
    bench_pulse_ready ready;
    void *userdata;
    struct client *next;
};

static const char *program = "bench";
static pa_mainloop *loop;
static pa_mainloop_api *api;
static struct client *clients;

pa_mainloop_api *bench_pulse_init(const char *name) {
    program = name;
    loop = pa_mainloop_new();
    api = loop ? pa_mainloop_get_api(loop) : NULL;
    return api;
}

static void state_changed(pa_context *context, void *userdata) {
    struct client *client = userdata;
    switch (pa_context_get_state(context)) {
    case PA_CONTEXT_READY:
        client->ready(context, client->userdata);
        break;
    case PA_CONTEXT_FAILED:
    case PA_CONTEXT_TERMINATED:
        fprintf(stderr, "%s: %s\n", program, pa_strerror(pa_context_errno(context)));
        bench_pulse_quit(1);
        break;
    default:
        break;
    }
}

pa_context *bench_pulse_connect(const char *name, bench_pulse_ready ready, void *userdata) {
    struct client *client = calloc(1, sizeof *client);
    if (client == NULL) return NULL;
    client->context = pa_context_new(api, name);
    if (client->context == NULL) {
        free(client);
        return NULL;
    }
    client->ready = ready;
    client->userdata = userdata;
    client->next = clients;
    clients = client;
    pa_context_set_state_callback(client->context, state_changed, client);
    if (pa_context_connect(client->context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
        fprintf(stderr, "%s: %s\n", program, pa_strerror(pa_context_errno(client->context)));
        return NULL;
    }
    return client->context;
}

static void signalled(pa_mainloop_api *a, pa_signal_event *e, int sig, void *userdata) {
    (void)a; (void)e; (void)sig; (void)userdata;
    bench_pulse_quit(0);
}

void bench_pulse_quit_on_signals(void) {
    pa_signal_init(api);
    pa_signal_new(SIGTERM, signalled, NULL);
    pa_signal_new(SIGINT, signalled, NULL);
}

void bench_pulse_quit(int status) {
    api->quit(api, status);
}

int bench_pulse_run(void) {
    int status = 1;
    pa_mainloop_run(loop, &status);
    return status;
}

void bench_pulse_end(void) {
    while (clients != NULL) {
        struct client *client = clients;
        clients = client->next;
        pa_context_set_state_callback(client->context, NULL, NULL); // ending is no failure
        pa_context_disconnect(client->context);
        pa_context_unref(client->context);
        free(client);
    }
    pa_mainloop_free(loop);
}

static void subscribed(pa_context *context, int success, void *userdata) {
    (void)context; (void)userdata;
    if (!success) {
        fprintf(stderr, "%s: subscribe failed\n", program);
        exit(1);
    }
    printf("ready\n");
    fflush(stdout);
}

void bench_pulse_subscribe(pa_context *context, pa_subscription_mask_t mask, pa_context_subscribe_cb_t event) {
    pa_context_set_subscribe_callback(context, event, NULL);
    pa_operation *o = pa_context_subscribe(context, mask, subscribed, NULL);
    if (o) pa_operation_unref(o);
}

void bench_pulse_feed_silence(pa_stream *stream, size_t nbytes, void *userdata) {
    (void)userdata;
    while (nbytes > 0) {
        void *data = NULL;
        size_t n = nbytes;
        if (pa_stream_begin_write(stream, &data, &n) < 0 || data == NULL) return;
        memset(data, 0, n);
        pa_stream_write(stream, data, n, NULL, 0, PA_SEEK_RELATIVE);
        nbytes -= n < nbytes ? n : nbytes;
    }
}
