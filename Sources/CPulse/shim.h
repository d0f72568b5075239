// CPulse: libpulse for Swift — the client library of PulseAudio and of PipeWire's pipewire-pulse,
// driven by the daemon's own poll thread through a pa_mainloop_api (never libpulse's threads).
// The headers only: CLazyLibraries defines the functions and loads libpulse on first use.
#ifndef CPULSE_SHIM_H
#define CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
#include <pulse/ext-stream-restore.h>

/// The flag libpulse sets in `tv_usec` of a time event's deadline when it is on the monotonic
/// (rt) clock rather than wall-clock time; defined only in libpulse's internal headers
/// (pulsecore/core-rtclock.h: PA_TIMEVAL_RTCLOCK).
static const unsigned long cpulse_timeval_rtclock = 1UL << 30;
#endif
