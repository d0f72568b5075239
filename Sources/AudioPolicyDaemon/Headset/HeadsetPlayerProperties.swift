import DBus

/// What the player registered with BlueZ shows: the active player's `org.mpris.MediaPlayer2.Player`
/// properties (what mpris-proxy passes on from `GetAll`), in the types bluetoothd accepts.
///
/// Why the types are checked: bluetoothd (profiles/audio/media.c, `parse_player_properties`)
/// refuses a whole `RegisterPlayer` with `InvalidArgs` when one value has a type it does not
/// expect (`xesam:artist` sent as `s`, as some players do, `LoopStatus` not one of the three
/// names), and ignores a whole `PropertiesChanged` after the first bad entry. A player's mistake
/// must not cost the headset its player, so a value of another integer type is converted, a lone
/// string where a list is due becomes a list of one, and anything else wrong is left out (the
/// exported property then shows its default).
struct HeadsetPlayerProperties: Sendable, Equatable {
    /// Name → value (unwrapped from its variant), only for values that passed the checks.
    private(set) var values: [String: DBusValue] = [:]

    /// Every property the registered object has, with its type and the value shown while the
    /// player did not say (a player that leaves a `Can*` out is still asked: it decides).
    static let declared: [(name: String, type: DBusType, fallback: DBusValue)] = [
        ("PlaybackStatus", .string, .string("Stopped")),
        ("LoopStatus", .string, .string("None")),
        ("Rate", .double, .double(1)),
        ("Shuffle", .boolean, .boolean(false)),
        ("Metadata", .dictionary(key: .string, value: .variant), .dictionary(key: .string, value: .variant, [])),
        ("Volume", .double, .double(1)),
        ("Position", .int64, .int64(0)),
        ("MinimumRate", .double, .double(1)),
        ("MaximumRate", .double, .double(1)),
        ("CanGoNext", .boolean, .boolean(true)),
        ("CanGoPrevious", .boolean, .boolean(true)),
        ("CanPlay", .boolean, .boolean(true)),
        ("CanPause", .boolean, .boolean(true)),
        ("CanSeek", .boolean, .boolean(false)),
        ("CanControl", .boolean, .boolean(true)),
    ]

    /// The properties bluetoothd sets (AVRCP's repeat and shuffle settings, profiles/audio/media.c
    /// `set_setting`): forwarded to the active player.
    static let writable: Set<String> = ["LoopStatus", "Shuffle"]

    /// The value shown for `name`: the player's, else the fallback.
    func value(_ name: String) -> DBusValue {
        values[name] ?? Self.declared.first { $0.name == name }?.fallback ?? .boolean(false)
    }

    /// Every declared property with its value: `RegisterPlayer`'s `a{sv}`, complete.
    var registration: DBusValue {
        .dictionary(key: .string, value: .variant,
                    Self.declared.map { DictionaryEntry(.string($0.name), .variant(value($0.name))) })
    }

    /// Takes the entries of an `a{sv}` (`GetAll`'s reply, `PropertiesChanged`'s changes) and
    /// returns the names whose shown value changed.
    @discardableResult
    mutating func merge(_ dictionary: DBusValue) -> [String] {
        guard case .dictionary(.string, .variant, let entries) = dictionary else { return [] }
        var changed: [String] = []
        for entry in entries {
            guard case .string(let name) = entry.key, case .variant(let raw) = entry.value,
                  let declaration = Self.declared.first(where: { $0.name == name }),
                  let value = Self.checked(raw, as: declaration.type, name: name) else { continue }
            if values[name] != value {
                values[name] = value
                changed.append(name)
            }
        }
        return changed
    }

    /// `value` in the type bluetoothd expects for `name`, or nil.
    static func checked(_ value: DBusValue, as type: DBusType, name: String) -> DBusValue? {
        switch (type, value) {
        case (.string, .string(let text)):
            switch name {
            case "PlaybackStatus": return ["Playing", "Paused", "Stopped"].contains(text) ? value : nil
            case "LoopStatus": return ["None", "Track", "Playlist"].contains(text) ? value : nil
            default: return value
            }
        case (.boolean, .boolean): return value
        case (.double, .double(let number)): return number.isFinite ? value : nil
        case (.int64, _): return integer(value).map { .int64($0) }
        case (.dictionary, .dictionary(.string, .variant, let entries)): return metadata(entries)
        default: return nil
        }
    }

    /// The metadata with the entries bluetoothd reads in its types; the others as they came
    /// (bluetoothd skips them).
    static func metadata(_ entries: [DictionaryEntry]) -> DBusValue {
        var kept: [DictionaryEntry] = []
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(let raw) = entry.value else { continue }
            let value: DBusValue?
            switch key {
            case "xesam:title", "xesam:album":
                if case .string = raw { value = raw } else { value = nil }
            case "xesam:artist", "xesam:genre":
                value = strings(raw)
            case "mpris:length":
                value = integer(raw).map { .int64($0) }
            case "xesam:trackNumber":
                value = integer(raw).flatMap { Int32(exactly: $0) }.map { .int32($0) }
            default:
                value = raw
            }
            if let value { kept.append(DictionaryEntry(.string(key), .variant(value))) }
        }
        return .dictionary(key: .string, value: .variant, kept)
    }

    /// `as` as it is, a lone `s` as a list of one; nil otherwise.
    static func strings(_ value: DBusValue) -> DBusValue? {
        switch value {
        case .array(.string, _): value
        case .string: .array(element: .string, [value])
        default: nil
        }
    }

    /// Any integer type as an `Int64`, if it fits.
    static func integer(_ value: DBusValue) -> Int64? {
        switch value {
        case .byte(let n): Int64(n)
        case .int16(let n): Int64(n)
        case .uint16(let n): Int64(n)
        case .int32(let n): Int64(n)
        case .uint32(let n): Int64(n)
        case .int64(let n): n
        case .uint64(let n): Int64(exactly: n)
        default: nil
        }
    }
}
