import DBus

/// What a player's `org.mpris.MediaPlayer2.Player` interface said last (`GetAll`, then each
/// `PropertiesChanged`), kept once for everyone who reads it: the foreign-player policy takes
/// its status, flags, volume and genre (`MPRISPlayerProperties`), the arbiter its status, the
/// headset everything it registers with BlueZ (`HeadsetPlayerProperties`).
///
/// Values are kept as the player sent them (unwrapped from their variants); each reader checks
/// the types it needs, since the player is not ours to trust. Bounded: at most `limit`
/// properties, names of at most `nameLengthLimit` characters — the interface has 15.
public struct MPRISPropertyStore: Sendable, Hashable {
    public private(set) var values: [String: DBusValue] = [:]

    static let limit = 64
    static let nameLengthLimit = 64

    public init() {}

    /// The value of `name`, nil while the player has not said it.
    public subscript(name: String) -> DBusValue? { values[name] }

    /// Takes the entries of an `a{sv}` (`GetAll`'s reply, `PropertiesChanged`'s changes) and
    /// returns the names whose value changed, in the order given. Anything but an `a{sv}`
    /// changes nothing; new names beyond `limit` are dropped.
    @discardableResult
    public mutating func merge(_ dictionary: DBusValue) -> [String] {
        guard case .dictionary(.string, .variant, let entries) = dictionary else { return [] }
        var changed: [String] = []
        for entry in entries {
            guard case .string(let name) = entry.key, case .variant(let value) = entry.value,
                  name.utf8.count <= Self.nameLengthLimit else { continue }
            guard values[name] != nil || values.count < Self.limit else { continue }
            if values.updateValue(value, forKey: name) != value { changed.append(name) }
        }
        return changed
    }

    /// Forgets the properties a `PropertiesChanged` lists as invalidated (`as`): not known any more.
    public mutating func invalidate(_ names: DBusValue) {
        guard case .array(.string, let elements) = names else { return }
        for case .string(let name) in elements { values[name] = nil }
    }

    /// Everything as one `a{sv}`, names in order: what `GetAll` would answer now.
    public var dictionary: DBusValue {
        .dictionary(key: .string, value: .variant,
                    values.sorted { $0.key < $1.key }.map { DictionaryEntry(.string($0.key), .variant($0.value)) })
    }

    /// `PlaybackStatus` when it is a string, else nil.
    public var playbackStatus: String? {
        if case .string(let status)? = values["PlaybackStatus"] { status } else { nil }
    }
}
