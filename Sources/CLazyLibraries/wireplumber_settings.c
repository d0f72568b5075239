// Follows one WirePlumber setting on a PipeWire server: `linking.pause-playback` of the
// `sm-settings` metadata (WirePlumber 0.5 publishes its settings there; pipewire-pulse shows none
// of it). See CLazyLibraries.h for the contract.
//
// One pw_thread_loop (its own thread, asleep in epoll with nothing armed while idle): the registry
// names the metadata object, which is bound and listened to; a core sync after each step tells when
// what the server holds has been read, so that "no such setting" is an answer, not a guess.
#include "CLazyLibraries.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pipewire/pipewire.h>
#include <pipewire/extensions/metadata.h>

struct mprisd_wireplumber_settings {
    struct pw_thread_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct pw_registry *registry;
    struct pw_metadata *metadata;
    uint32_t metadata_id;
    struct spa_hook core_listener;
    struct spa_hook registry_listener;
    struct spa_hook metadata_listener;
    int pending_sync;
    // What was last reported (-2: nothing yet), and what the metadata says now.
    int reported;
    int value;
    bool connected;
    mprisd_wireplumber_settings_cb callback;
    void *userdata;
};

static const char *const setting_key = "linking.pause-playback";

static void report(struct mprisd_wireplumber_settings *settings) {
    int now = settings->connected ? settings->value : MPRISD_SETTING_UNKNOWN;
    if (now == settings->reported) return;
    settings->reported = now;
    settings->callback(settings->userdata, now);
}

static void sync_core(struct mprisd_wireplumber_settings *settings) {
    settings->pending_sync = pw_core_sync(settings->core, PW_ID_CORE, settings->pending_sync);
}

// A JSON boolean as WirePlumber writes it ("true", "false"); anything else is no answer.
static int parse(const char *value) {
    if (value == NULL) return MPRISD_SETTING_ABSENT;
    if (strcmp(value, "true") == 0) return MPRISD_SETTING_ON;
    if (strcmp(value, "false") == 0) return MPRISD_SETTING_OFF;
    return MPRISD_SETTING_ABSENT;
}

static int on_property(void *data, uint32_t subject, const char *key, const char *type, const char *value) {
    (void)type;
    struct mprisd_wireplumber_settings *settings = data;
    if (subject != PW_ID_CORE) return 0;
    if (key == NULL) {
        settings->value = MPRISD_SETTING_ABSENT;  // every key of the subject removed
    } else if (strcmp(key, setting_key) == 0) {
        settings->value = parse(value);
    } else {
        return 0;
    }
    if (settings->pending_sync == 0 && settings->connected) report(settings);
    return 0;
}

static const struct pw_metadata_events metadata_events = {
    PW_VERSION_METADATA_EVENTS,
    .property = on_property,
};

static void on_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
                      const struct spa_dict *props) {
    (void)permissions;
    (void)version;
    struct mprisd_wireplumber_settings *settings = data;
    if (settings->metadata != NULL || strcmp(type, PW_TYPE_INTERFACE_Metadata) != 0 || props == NULL) return;
    const char *name = spa_dict_lookup(props, PW_KEY_METADATA_NAME);
    if (name == NULL || strcmp(name, "sm-settings") != 0) return;
    settings->metadata = pw_registry_bind(settings->registry, id, PW_TYPE_INTERFACE_Metadata, PW_VERSION_METADATA, 0);
    if (settings->metadata == NULL) return;
    settings->metadata_id = id;
    pw_metadata_add_listener(settings->metadata, &settings->metadata_listener, &metadata_events, settings);
    sync_core(settings);  // its properties arrive before this sync's answer
}

static void on_global_remove(void *data, uint32_t id) {
    struct mprisd_wireplumber_settings *settings = data;
    if (settings->metadata == NULL || id != settings->metadata_id) return;
    spa_hook_remove(&settings->metadata_listener);
    pw_proxy_destroy((struct pw_proxy *)settings->metadata);
    settings->metadata = NULL;
    settings->value = MPRISD_SETTING_ABSENT;  // WirePlumber went away
    report(settings);
}

static const struct pw_registry_events registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = on_global,
    .global_remove = on_global_remove,
};

static void on_done(void *data, uint32_t id, int seq) {
    struct mprisd_wireplumber_settings *settings = data;
    if (id != PW_ID_CORE || seq != settings->pending_sync) return;
    settings->pending_sync = 0;
    report(settings);
}

static void on_error(void *data, uint32_t id, int seq, int res, const char *message) {
    (void)seq;
    (void)message;
    struct mprisd_wireplumber_settings *settings = data;
    if (id != PW_ID_CORE || res != -EPIPE) return;
    settings->connected = false;  // the server went away: nothing is known until a new watch
    report(settings);
}

static const struct pw_core_events core_events = {
    PW_VERSION_CORE_EVENTS,
    .done = on_done,
    .error = on_error,
};

struct mprisd_wireplumber_settings *mprisd_wireplumber_settings_start(mprisd_wireplumber_settings_cb callback,
                                                                      void *userdata, const char **error) {
    if (!mprisd_pipewire_load(error)) return NULL;
    pw_init(NULL, NULL);
    struct mprisd_wireplumber_settings *settings = calloc(1, sizeof *settings);
    if (settings == NULL) {
        if (error != NULL) *error = "out of memory";
        return NULL;
    }
    settings->callback = callback;
    settings->userdata = userdata;
    settings->reported = -2;
    settings->value = MPRISD_SETTING_ABSENT;
    settings->loop = pw_thread_loop_new("mprisd-pipewire", NULL);
    if (settings->loop == NULL) goto failed;
    settings->context = pw_context_new(pw_thread_loop_get_loop(settings->loop), NULL, 0);
    if (settings->context == NULL) goto failed;
    if (pw_thread_loop_start(settings->loop) < 0) goto failed;
    pw_thread_loop_lock(settings->loop);
    settings->core = pw_context_connect(settings->context, NULL, 0);
    if (settings->core == NULL) {
        pw_thread_loop_unlock(settings->loop);
        if (error != NULL) *error = "no PipeWire server to connect to";
        mprisd_wireplumber_settings_stop(settings);
        return NULL;
    }
    settings->connected = true;
    pw_core_add_listener(settings->core, &settings->core_listener, &core_events, settings);
    settings->registry = pw_core_get_registry(settings->core, PW_VERSION_REGISTRY, 0);
    if (settings->registry != NULL) {
        pw_registry_add_listener(settings->registry, &settings->registry_listener, &registry_events, settings);
    }
    sync_core(settings);  // every global arrives before this sync's answer
    pw_thread_loop_unlock(settings->loop);
    return settings;
failed:
    if (error != NULL) *error = "cannot start a PipeWire thread loop";
    mprisd_wireplumber_settings_stop(settings);
    return NULL;
}

void mprisd_wireplumber_settings_stop(struct mprisd_wireplumber_settings *settings) {
    if (settings == NULL) return;
    if (settings->loop != NULL) pw_thread_loop_stop(settings->loop);  // joined: no callback runs after
    if (settings->metadata != NULL) {
        spa_hook_remove(&settings->metadata_listener);
        pw_proxy_destroy((struct pw_proxy *)settings->metadata);
    }
    if (settings->registry != NULL) {
        spa_hook_remove(&settings->registry_listener);
        pw_proxy_destroy((struct pw_proxy *)settings->registry);
    }
    if (settings->core != NULL) {
        spa_hook_remove(&settings->core_listener);
        pw_core_disconnect(settings->core);
    }
    if (settings->context != NULL) pw_context_destroy(settings->context);
    if (settings->loop != NULL) pw_thread_loop_destroy(settings->loop);
    free(settings);
}
