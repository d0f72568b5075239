import CLazyLibraries
#if canImport(Glibc)
import Glibc
#endif

/// Any dconf key read and written as GVariant text (`['XF86AudioPlay']`, `@as []`), the way
/// `dconf read`/`dconf write` show them, through libdconf (loaded on first use): the store GNOME's
/// Settings writes its shortcuts to. A read comes from the database files (no bus); a write goes
/// to dconf-service over the session bus and returns once it took it.
public enum DconfStore {
    /// Why dconf cannot be used here (libdconf1 missing); nil when it can.
    public static var unavailable: String? {
        var reason: UnsafePointer<CChar>?
        return mprisd_dconf_load(&reason) ? nil : reason.map { String(cString: $0) } ?? "libdconf cannot be loaded"
    }

    /// The value a database sets at `key`; nil when none does (the schema's default applies).
    /// `mprisd_dconf_read_text` (`dconf_client_read`, `g_variant_print`).
    public static func read(_ key: String) -> String? {
        guard let text = mprisd_dconf_read_text(key) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// Writes `text` at `key`, or resets the key when `text` is nil; the reason when dconf did not
    /// take it. `mprisd_dconf_write_text` (`g_variant_parse`, `dconf_client_write_sync`).
    public static func write(_ key: String, _ text: String?) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let failure: UnsafePointer<CChar>? = if let text {
            mprisd_dconf_write_text(key, text, &buffer, buffer.count)
        } else {
            mprisd_dconf_write_text(key, nil, &buffer, buffer.count)
        }
        return failure.map { String(cString: $0) }
    }

    /// The default of `key` in the installed GSettings schema `schema`, as GVariant text; nil when
    /// that schema or key is not installed (`g_settings_schema_key_get_default_value`).
    public static func schemaDefault(_ schema: String, _ key: String) -> String? {
        guard let text = mprisd_gsettings_default_text(schema, key) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }
}
