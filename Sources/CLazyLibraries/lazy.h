// Internal to CLazyLibraries: the forwarder macros of pulse.c and sndfile.c.
#ifndef MPRISD_LAZY_H
#define MPRISD_LAZY_H
#include <stddef.h>

/// A forwarder reached although its library failed to load: one line on stderr, then abort().
/// Unreachable when callers ask `mprisd_*_load` first, as AudioServer and AudioDevices do.
__attribute__((noreturn, visibility("hidden")))
void mprisd_lazy_unavailable(const char *function, const char *reason);

// Each library file lists its functions as LIST(X) with X(return type, name, (parameters),
// (arguments)) — pulse.c as LIST(X, V), V for those returning void — and defines LAZY_NEED(name) (load the library or abort) and LAZY_TABLE (its array of
// resolved pointers); these expand the list into the table's indices, the symbol names, and one
// forwarder per function, typed by the real header's declaration (`__typeof__`): a prototype that
// disagrees with the header does not compile.
#define LAZY_INDEX(ret, name, params, args) lazy_index_##name,
#define LAZY_NAME(ret, name, params, args) #name,
#define LAZY_FORWARD(ret, name, params, args) \
    ret name params { LAZY_NEED(#name); return ((__typeof__(name) *)LAZY_TABLE[lazy_index_##name]) args; }
#define LAZY_FORWARD_VOID(ret, name, params, args) \
    void name params { LAZY_NEED(#name); ((__typeof__(name) *)LAZY_TABLE[lazy_index_##name]) args; }
#endif
