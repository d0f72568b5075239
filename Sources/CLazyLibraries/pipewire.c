// libpipewire on first use: the few `pw_*` functions the WirePlumber settings watcher calls,
// forwarded to libpipewire-0.3.so.0. (Every other call it makes — the registry, the metadata, the
// core's sync — is an inline method call through an interface the library hands out.)
#include "CLazyLibraries.h"
#include "lazy.h"
#include <pthread.h>
// Hidden, as in pulse.c: these serve this program's own calls only.
#pragma GCC visibility push(hidden)
#include <pipewire/pipewire.h>

#define PIPEWIRE_FUNCTIONS(X, V) \
    V(void, pw_init, (int *argc, char **argv[]), (argc, argv)) \
    X(struct pw_thread_loop *, pw_thread_loop_new, (const char *name, const struct spa_dict *props), (name, props)) \
    X(struct pw_loop *, pw_thread_loop_get_loop, (struct pw_thread_loop *loop), (loop)) \
    X(int, pw_thread_loop_start, (struct pw_thread_loop *loop), (loop)) \
    V(void, pw_thread_loop_stop, (struct pw_thread_loop *loop), (loop)) \
    V(void, pw_thread_loop_destroy, (struct pw_thread_loop *loop), (loop)) \
    V(void, pw_thread_loop_lock, (struct pw_thread_loop *loop), (loop)) \
    V(void, pw_thread_loop_unlock, (struct pw_thread_loop *loop), (loop)) \
    X(struct pw_context *, pw_context_new, (struct pw_loop *main_loop, struct pw_properties *props, size_t user_data_size), \
      (main_loop, props, user_data_size)) \
    V(void, pw_context_destroy, (struct pw_context *context), (context)) \
    X(struct pw_core *, pw_context_connect, (struct pw_context *context, struct pw_properties *properties, \
      size_t user_data_size), (context, properties, user_data_size)) \
    X(int, pw_core_disconnect, (struct pw_core *core), (core)) \
    V(void, pw_proxy_destroy, (struct pw_proxy *proxy), (proxy))

enum { PIPEWIRE_FUNCTIONS(LAZY_INDEX, LAZY_INDEX) pipewire_count };
static const char *const pipewire_names[] = { PIPEWIRE_FUNCTIONS(LAZY_NAME, LAZY_NAME) };
static void *pipewire_table[pipewire_count];
static pthread_once_t pipewire_once = PTHREAD_ONCE_INIT;
static const char *pipewire_error;
static char pipewire_error_text[512];

static void pipewire_open(void) {
    pipewire_error = mprisd_lazy_open("libpipewire-0.3.so.0", "libpipewire-0.3-0", pipewire_names, pipewire_table,
                                      pipewire_count, pipewire_error_text, sizeof pipewire_error_text);
}

#pragma GCC visibility pop

bool mprisd_pipewire_load(const char **error) {
    pthread_once(&pipewire_once, pipewire_open);
    if (pipewire_error != NULL && error != NULL) *error = pipewire_error;
    return pipewire_error == NULL;
}

#pragma GCC visibility push(hidden)
#define LAZY_NEED(name) if (!mprisd_pipewire_load(NULL)) mprisd_lazy_unavailable(name, pipewire_error)
#define LAZY_TABLE pipewire_table
PIPEWIRE_FUNCTIONS(LAZY_FORWARD, LAZY_FORWARD_VOID)
#pragma GCC visibility pop
