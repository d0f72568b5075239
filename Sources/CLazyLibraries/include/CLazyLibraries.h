// CLazyLibraries: libpulse and libsndfile loaded on first use (dlopen) instead of at exec.
//
// Why (issue 16): linking libpulse costs every start of `mprisd` ~2 ms of CPU and its 20
// libraries (X11, xcb, systemd, gcrypt …), libsndfile its codecs, and `mprisd control` uses
// neither. This target defines the `pa_*` and `sf_*` functions the program calls, each a forwarder
// to the real one resolved once (hidden: never exported, so nothing else in the process, an ALSA
// plugin or libpulse itself, is routed through them). Swift code imports the real headers through
// CPulse and CSndfile as before and asks the `*_load` function below first, so a machine without
// the library gets a clear message instead of a crash.
#ifndef CLAZYLIBRARIES_H
#define CLAZYLIBRARIES_H
#include <stdbool.h>
#include <stddef.h>

/// Loads libpulse.so.0 and resolves every `pa_*` function the program uses, once per process
/// (later calls return the first answer at once; thread-safe). On failure, `*error` (when not NULL)
/// points at a static one-line reason, e.g. "cannot load libpulse.so.0 (package libpulse0): …".
bool mprisd_pulse_load(const char **error);

/// The same for libsndfile.so.1 and the `sf_*` functions.
bool mprisd_sndfile_load(const char **error);

/// What both use: `dlopen(soname, RTLD_NOW | RTLD_LOCAL)`, then `dlsym` of each of `names` into
/// `slots` (function pointers, as `void *`). Returns NULL when all resolved, else a one-line reason
/// written into `buffer` (`package` names the Debian package for the message). The library is
/// left loaded when every symbol is found (never unloaded), closed otherwise. Exposed for tests.
const char *mprisd_lazy_open(const char *soname, const char *package, const char *const names[],
                             void *slots[], size_t count, char *buffer, size_t size);
#endif
