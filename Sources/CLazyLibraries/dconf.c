// dconf through libdconf.so.1, loaded on first use (see CLazyLibraries.h). No dconf headers are
// needed to build: the few functions are declared here with GLib's own types made opaque, as the
// library's ABI (stable since dconf 0.16) has them.
#include "CLazyLibraries.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef struct DConfClient DConfClient;
typedef struct GVariant GVariant;
typedef struct GError {
    unsigned int domain;
    int code;
    char *message;
} GError;

static struct {
    DConfClient *(*client_new)(void);
    GVariant *(*client_read)(DConfClient *, const char *);
    int (*client_write_sync)(DConfClient *, const char *, GVariant *, char **, void *, GError **);
    GVariant *(*variant_new_boolean)(int);
    int (*variant_is_of_type)(GVariant *, const char *);
    int (*variant_get_boolean)(GVariant *);
    GVariant *(*variant_ref_sink)(GVariant *);
    void (*variant_unref)(GVariant *);
    void (*object_unref)(void *);
    void (*error_free)(GError *);
    void (*free)(void *);
    char *(*variant_print)(GVariant *, int);
    GVariant *(*variant_parse)(const void *, const char *, const char *, const char **, GError **);
    void *(*schema_source_get_default)(void);
    void *(*schema_source_lookup)(void *, const char *, int);
    void *(*schema_get_key)(void *, const char *);
    GVariant *(*schema_key_get_default_value)(void *);
    void (*schema_key_unref)(void *);
    void (*schema_unref)(void *);
} dconf;

static const char *const names[] = {
    "dconf_client_new", "dconf_client_read", "dconf_client_write_sync", "g_variant_new_boolean",
    "g_variant_is_of_type", "g_variant_get_boolean", "g_variant_ref_sink", "g_variant_unref",
    "g_object_unref", "g_error_free", "g_free", "g_variant_print", "g_variant_parse",
    "g_settings_schema_source_get_default", "g_settings_schema_source_lookup", "g_settings_schema_get_key",
    "g_settings_schema_key_get_default_value", "g_settings_schema_key_unref", "g_settings_schema_unref",
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char failure_text[512];

static void load(void) {
    void *handle = dlopen("libdconf.so.1", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(failure_text, sizeof failure_text, "cannot load libdconf.so.1 (package libdconf1): %s",
                 reason != NULL ? reason : "unknown dlopen error");
        failure = failure_text;
        return;
    }
    void **slots = (void **)&dconf;
    for (size_t index = 0; index < sizeof names / sizeof names[0]; index++) {
        // The GLib functions come with libdconf's dependencies: dlsym searches them too.
        slots[index] = dlsym(handle, names[index]);
        if (slots[index] == NULL) {
            snprintf(failure_text, sizeof failure_text, "libdconf.so.1 has no %s (package libdconf1 too old?)", names[index]);
            failure = failure_text;
            memset(&dconf, 0, sizeof dconf);
            dlclose(handle);
            return;
        }
    }
}

bool mprisd_dconf_load(const char **error) {
    pthread_once(&once, load);
    if (failure != NULL && error != NULL) *error = failure;
    return failure == NULL;
}

int mprisd_dconf_read_boolean(const char *key) {
    if (!mprisd_dconf_load(NULL)) return -1;
    DConfClient *client = dconf.client_new();
    if (client == NULL) return -1;
    GVariant *value = dconf.client_read(client, key);
    int result = -1;
    if (value != NULL) {
        if (dconf.variant_is_of_type(value, "b")) result = dconf.variant_get_boolean(value) ? 1 : 0;
        dconf.variant_unref(value);
    }
    dconf.object_unref(client);
    return result;
}

/// Writes `variant` (sunk; NULL resets the key, so the schema's default applies) at `key`, waits
/// for dconf-service, and releases `variant`; NULL on success, else a one-line reason in `buffer`.
static const char *write_variant(const char *key, GVariant *variant, char *buffer, size_t size) {
    DConfClient *client = dconf.client_new();
    if (client == NULL) {
        if (variant != NULL) dconf.variant_unref(variant);
        snprintf(buffer, size, "dconf: no client");
        return buffer;
    }
    GError *error = NULL;
    char *tag = NULL;
    int written = dconf.client_write_sync(client, key, variant, &tag, NULL, &error);
    const char *result = NULL;
    if (!written) {
        snprintf(buffer, size, "dconf: %s", error != NULL && error->message != NULL ? error->message : "the write failed");
        result = buffer;
    }
    if (error != NULL) dconf.error_free(error);
    if (tag != NULL) dconf.free(tag);
    if (variant != NULL) dconf.variant_unref(variant);
    dconf.object_unref(client);
    return result;
}

const char *mprisd_dconf_write_boolean(const char *key, bool value, char *buffer, size_t size) {
    const char *reason = NULL;
    if (!mprisd_dconf_load(&reason)) {
        snprintf(buffer, size, "%s", reason);
        return buffer;
    }
    return write_variant(key, dconf.variant_ref_sink(dconf.variant_new_boolean(value)), buffer, size);
}

/// A GVariant's text with its type where the text alone would not say it ("@as []"), in a
/// malloc'd copy the caller frees; NULL for NULL.
static char *printed(GVariant *value) {
    if (value == NULL) return NULL;
    char *text = dconf.variant_print(value, 1);
    char *copy = text != NULL ? strdup(text) : NULL;
    if (text != NULL) dconf.free(text);
    return copy;
}

char *mprisd_dconf_read_text(const char *key) {
    if (!mprisd_dconf_load(NULL)) return NULL;
    DConfClient *client = dconf.client_new();
    if (client == NULL) return NULL;
    GVariant *value = dconf.client_read(client, key);
    char *text = printed(value);
    if (value != NULL) dconf.variant_unref(value);
    dconf.object_unref(client);
    return text;
}

const char *mprisd_dconf_write_text(const char *key, const char *text, char *buffer, size_t size) {
    const char *reason = NULL;
    if (!mprisd_dconf_load(&reason)) {
        snprintf(buffer, size, "%s", reason);
        return buffer;
    }
    GVariant *variant = NULL;
    GError *error = NULL;
    if (text != NULL) {
        variant = dconf.variant_parse(NULL, text, NULL, NULL, &error);
        if (variant == NULL) {
            snprintf(buffer, size, "not a GVariant text: %s", error != NULL && error->message != NULL ? error->message : "unparsable");
            if (error != NULL) dconf.error_free(error);
            return buffer;
        }
        variant = dconf.variant_ref_sink(variant);
    }
    return write_variant(key, variant, buffer, size);
}

char *mprisd_gsettings_default_text(const char *schema_id, const char *key) {
    if (!mprisd_dconf_load(NULL)) return NULL;
    void *source = dconf.schema_source_get_default();
    if (source == NULL) return NULL;
    void *schema = dconf.schema_source_lookup(source, schema_id, 1);
    if (schema == NULL) return NULL;
    char *text = NULL;
    void *schema_key = dconf.schema_get_key(schema, key);
    if (schema_key != NULL) {
        GVariant *value = dconf.schema_key_get_default_value(schema_key);
        text = printed(value);
        if (value != NULL) dconf.variant_unref(value);
        dconf.schema_key_unref(schema_key);
    }
    dconf.schema_unref(schema);
    return text;
}
