// The libpulse main loop of the C benchmark programs (bench-pulse-watch, bench-pulse-streams,
// bench-implicit-watch, bench-implicit-trigger), written once: the loop, clients that connect to
// the server every libpulse client finds (PULSE_SERVER, ...; never autospawned), a client's
// failure ending the program, and the teardown.
//
//   bench_pulse_init("bench-x");                     // the loop; the name prefixes every error
//   bench_pulse_connect("bench-x", connected, NULL); // connected(context, NULL) once it is ready
//   int status = bench_pulse_run();                  // until bench_pulse_quit(status)
//   bench_pulse_end();                               // every client disconnected, the loop freed
//
// One loop per process: the state is the library's own (these programs are single-threaded).
#ifndef BENCH_PULSE_H
#define BENCH_PULSE_H

#include <pulse/pulseaudio.h>
#include <stddef.h>

/// Called once a client is PA_CONTEXT_READY.
typedef void (*bench_pulse_ready)(pa_context *context, void *userdata);

/// Makes the main loop; `program` names the program in the errors printed here. NULL if libpulse
/// cannot make one.
pa_mainloop_api *bench_pulse_init(const char *program);

/// Connects a client called `name` (its application.name); `ready` is called once it is ready. A
/// client that fails or is terminated by the server prints "PROGRAM: ERROR" and quits the loop with
/// status 1: each program's work needs every one of its clients. NULL (error printed) if the
/// connection cannot even start.
pa_context *bench_pulse_connect(const char *name, bench_pulse_ready ready, void *userdata);

/// SIGTERM and SIGINT quit the loop with status 0 (the teardown then runs), for a program that a
/// script stops.
void bench_pulse_quit_on_signals(void);

/// Ends bench_pulse_run with `status`.
void bench_pulse_quit(int status);

/// Runs the loop until bench_pulse_quit; its status (1 if the loop itself failed).
int bench_pulse_run(void);

/// Disconnects every client (quietly: no failure is reported for them) and frees the loop.
void bench_pulse_end(void);

/// Subscribes `context` to the events of `mask`, delivered to `event`, and prints "ready" on
/// stdout once the server has confirmed it (so a script reading the program's output knows that no
/// later event can be missed); a refused subscription ends the program with status 1.
void bench_pulse_subscribe(pa_context *context, pa_subscription_mask_t mask, pa_context_subscribe_cb_t event);

/// A playback stream's write callback: the data the server asks for, as silence.
void bench_pulse_feed_silence(pa_stream *stream, size_t nbytes, void *userdata);

#endif
