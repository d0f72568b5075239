// CLazyLibraries: libpulse, libsndfile, libpipewire and libdconf loaded on first use (dlopen) instead of at exec.
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

/// The same for libpipewire-0.3.so.0 (the WirePlumber settings watcher below).
bool mprisd_pipewire_load(const char **error);

/// What a WirePlumber setting is on the PipeWire server.
enum {
    /// Not known: not connected (yet, or any more), or the server's contents not read yet.
    MPRISD_SETTING_UNKNOWN = -1,
    /// Off (`false`).
    MPRISD_SETTING_OFF = 0,
    /// On (`true`).
    MPRISD_SETTING_ON = 1,
    /// Read, and not there: no WirePlumber 0.5 (0.4 has no `sm-settings`), one older than the
    /// setting (0.5.11), or WirePlumber gone.
    MPRISD_SETTING_ABSENT = 2,
};

/// Told each change of the setting (once read, then on every change), on the watcher's own thread.
typedef void (*mprisd_wireplumber_settings_cb)(void *userdata, int value);

/// A watcher of WirePlumber's `linking.pause-playback` (WirePlumber ≥ 0.5.11 pauses MPRIS players
/// whose output device node goes away; on by default), read from the `sm-settings` metadata of the
/// PipeWire server that PIPEWIRE_REMOTE / PIPEWIRE_RUNTIME_DIR / XDG_RUNTIME_DIR name.
struct mprisd_wireplumber_settings;

/// Connects and follows the setting on a thread of its own (libpipewire loaded on first use);
/// `callback` gets the first answer once the server's contents are read, then each change, and
/// `MPRISD_SETTING_UNKNOWN` once the server goes away (start a new watcher when it is back). NULL,
/// with `*error` (static text) when not NULL, if libpipewire or the server is not there.
struct mprisd_wireplumber_settings *mprisd_wireplumber_settings_start(mprisd_wireplumber_settings_cb callback,
                                                                      void *userdata, const char **error);

/// Stops the watcher (its thread joined: no callback runs after this returns) and frees it.
void mprisd_wireplumber_settings_stop(struct mprisd_wireplumber_settings *settings);

/// What both use: `dlopen(soname, RTLD_NOW | RTLD_LOCAL)`, then `dlsym` of each of `names` into
/// `slots` (function pointers, as `void *`). Returns NULL when all resolved, else a one-line reason
/// written into `buffer` (`package` names the Debian package for the message). The library is
/// left loaded when every symbol is found (never unloaded), closed otherwise. Exposed for tests.
const char *mprisd_lazy_open(const char *soname, const char *package, const char *const names[],
                             void *slots[], size_t count, char *buffer, size_t size);
/// dconf (the GNOME desktop's settings store), loaded on first use: libdconf.so.1 and the GLib
/// functions it brings. One boolean key read or written; the user's database and the system's are
/// read by the library itself (no D-Bus for a read), a write goes to dconf-service over the session
/// bus and returns once it took it. `mprisd_dconf_load` as `mprisd_pulse_load`.
bool mprisd_dconf_load(const char **error);

/// The boolean at `key` ("/org/gnome/desktop/notifications/show-banners"): 0 or 1; -1 when no
/// database sets it (the schema's default applies) or it holds another type.
int mprisd_dconf_read_boolean(const char *key);

/// Writes `value` at `key` and waits for dconf-service; NULL on success, else a one-line reason
/// in `buffer`.
const char *mprisd_dconf_write_boolean(const char *key, bool value, char *buffer, size_t size);

/// The value at `key` as GVariant text, typed where the text alone would not say the type
/// (`@as []`), malloc'd for the caller to free; NULL when no database sets it.
char *mprisd_dconf_read_text(const char *key);

/// Writes the GVariant text `text` at `key` (NULL: resets it, so the schema's default applies)
/// and waits for dconf-service; NULL on success, else a one-line reason in `buffer`.
const char *mprisd_dconf_write_text(const char *key, const char *text, char *buffer, size_t size);

/// The default of `key` in the installed GSettings schema `schema_id`, as GVariant text
/// (malloc'd); NULL when the schema or the key is not installed. g_settings_schema_key_get_default_value.
char *mprisd_gsettings_default_text(const char *schema_id, const char *key);

#endif
