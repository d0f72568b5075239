// The one clock of the C benchmark programs: CLOCK_MONOTONIC, the clock of Python's
// time.monotonic() too, so that a script can set a program's timestamps beside its own.
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <stdint.h>

/// Nanoseconds on CLOCK_MONOTONIC.
int64_t bench_now_ns(void);

#endif
