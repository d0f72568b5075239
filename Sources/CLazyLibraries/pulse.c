// libpulse on first use: the 36 `pa_*` functions AudioServer calls, forwarded to libpulse.so.0.
#include "CLazyLibraries.h"
#include "lazy.h"
#include <pthread.h>
// Hidden: the forwarders serve this program's own calls only. Exported, they would take the place
// of libpulse's functions for every library in the process (libpulse's internal calls, the ALSA
// pulse plugin), before libpulse is loaded.
#pragma GCC visibility push(hidden)
#include <pulse/pulseaudio.h>
#include <pulse/ext-stream-restore.h>

#define PULSE_FUNCTIONS(X, V) \
    X(pa_channel_map *, pa_channel_map_init, (pa_channel_map *m), (m)) \
    X(pa_channel_map *, pa_channel_map_init_auto, (pa_channel_map *m, unsigned channels, pa_channel_map_def_t def), \
      (m, channels, def)) \
    X(int, pa_context_connect, (pa_context *c, const char *server, pa_context_flags_t flags, const pa_spawn_api *api), \
      (c, server, flags, api)) \
    V(void, pa_context_disconnect, (pa_context *c), (c)) \
    X(int, pa_context_errno, (const pa_context *c), (c)) \
    X(pa_operation *, pa_context_get_client_info, (pa_context *c, uint32_t idx, pa_client_info_cb_t cb, void *userdata), \
      (c, idx, cb, userdata)) \
    X(pa_operation *, pa_context_get_client_info_list, (pa_context *c, pa_client_info_cb_t cb, void *userdata), \
      (c, cb, userdata)) \
    X(pa_operation *, pa_context_get_server_info, (pa_context *c, pa_server_info_cb_t cb, void *userdata), \
      (c, cb, userdata)) \
    X(pa_operation *, pa_context_get_sink_info_by_index, \
      (pa_context *c, uint32_t idx, pa_sink_info_cb_t cb, void *userdata), (c, idx, cb, userdata)) \
    X(pa_operation *, pa_context_get_sink_info_list, (pa_context *c, pa_sink_info_cb_t cb, void *userdata), \
      (c, cb, userdata)) \
    X(pa_operation *, pa_context_get_sink_input_info, \
      (pa_context *c, uint32_t idx, pa_sink_input_info_cb_t cb, void *userdata), (c, idx, cb, userdata)) \
    X(pa_operation *, pa_context_get_sink_input_info_list, (pa_context *c, pa_sink_input_info_cb_t cb, void *userdata), \
      (c, cb, userdata)) \
    X(pa_operation *, pa_context_get_source_info_by_index, \
      (pa_context *c, uint32_t idx, pa_source_info_cb_t cb, void *userdata), (c, idx, cb, userdata)) \
    X(pa_operation *, pa_context_get_source_info_list, (pa_context *c, pa_source_info_cb_t cb, void *userdata), \
      (c, cb, userdata)) \
    X(pa_operation *, pa_context_get_source_output_info, \
      (pa_context *c, uint32_t idx, pa_source_output_info_cb_t cb, void *userdata), (c, idx, cb, userdata)) \
    X(pa_operation *, pa_context_get_source_output_info_list, \
      (pa_context *c, pa_source_output_info_cb_t cb, void *userdata), (c, cb, userdata)) \
    X(pa_context_state_t, pa_context_get_state, (const pa_context *c), (c)) \
    X(pa_context *, pa_context_new_with_proplist, \
      (pa_mainloop_api *mainloop, const char *name, const pa_proplist *proplist), (mainloop, name, proplist)) \
    X(pa_operation *, pa_context_set_sink_input_mute, \
      (pa_context *c, uint32_t idx, int mute, pa_context_success_cb_t cb, void *userdata), (c, idx, mute, cb, userdata)) \
    X(pa_operation *, pa_context_set_sink_input_volume, \
      (pa_context *c, uint32_t idx, const pa_cvolume *volume, pa_context_success_cb_t cb, void *userdata), \
      (c, idx, volume, cb, userdata)) \
    X(pa_operation *, pa_context_set_source_output_mute, \
      (pa_context *c, uint32_t idx, int mute, pa_context_success_cb_t cb, void *userdata), (c, idx, mute, cb, userdata)) \
    X(pa_operation *, pa_context_set_source_output_volume, \
      (pa_context *c, uint32_t idx, const pa_cvolume *volume, pa_context_success_cb_t cb, void *userdata), \
      (c, idx, volume, cb, userdata)) \
    V(void, pa_context_set_state_callback, (pa_context *c, pa_context_notify_cb_t cb, void *userdata), \
      (c, cb, userdata)) \
    V(void, pa_context_set_subscribe_callback, (pa_context *c, pa_context_subscribe_cb_t cb, void *userdata), \
      (c, cb, userdata)) \
    X(pa_operation *, pa_context_subscribe, \
      (pa_context *c, pa_subscription_mask_t m, pa_context_success_cb_t cb, void *userdata), (c, m, cb, userdata)) \
    V(void, pa_context_unref, (pa_context *c), (c)) \
    X(pa_cvolume *, pa_cvolume_init, (pa_cvolume *a), (a)) \
    X(pa_operation *, pa_ext_stream_restore_read, (pa_context *c, pa_ext_stream_restore_read_cb_t cb, void *userdata), \
      (c, cb, userdata)) \
    X(pa_operation *, pa_ext_stream_restore_write, \
      (pa_context *c, pa_update_mode_t mode, const pa_ext_stream_restore_info data[], unsigned n, \
       int apply_immediately, pa_context_success_cb_t cb, void *userdata), \
      (c, mode, data, n, apply_immediately, cb, userdata)) \
    V(void, pa_operation_unref, (pa_operation *o), (o)) \
    V(void, pa_proplist_free, (pa_proplist *p), (p)) \
    X(const char *, pa_proplist_gets, (const pa_proplist *p, const char *key), (p, key)) \
    X(const char *, pa_proplist_iterate, (const pa_proplist *p, void **state), (p, state)) \
    X(pa_proplist *, pa_proplist_new, (void), ()) \
    X(int, pa_proplist_sets, (pa_proplist *p, const char *key, const char *value), (p, key, value)) \
    X(const char *, pa_strerror, (int error), (error))

enum { PULSE_FUNCTIONS(LAZY_INDEX, LAZY_INDEX) pulse_count };
static const char *const pulse_names[] = { PULSE_FUNCTIONS(LAZY_NAME, LAZY_NAME) };
static void *pulse_table[pulse_count];
static pthread_once_t pulse_once = PTHREAD_ONCE_INIT;
static const char *pulse_error;
static char pulse_error_text[512];

static void pulse_open(void) {
    pulse_error = mprisd_lazy_open("libpulse.so.0", "libpulse0", pulse_names, pulse_table, pulse_count,
                                   pulse_error_text, sizeof pulse_error_text);
}

#pragma GCC visibility pop

bool mprisd_pulse_load(const char **error) {
    pthread_once(&pulse_once, pulse_open);
    if (pulse_error != NULL && error != NULL) *error = pulse_error;
    return pulse_error == NULL;
}

#pragma GCC visibility push(hidden)
#define LAZY_NEED(name) if (!mprisd_pulse_load(NULL)) mprisd_lazy_unavailable(name, pulse_error)
#define LAZY_TABLE pulse_table
PULSE_FUNCTIONS(LAZY_FORWARD, LAZY_FORWARD_VOID)
#pragma GCC visibility pop
