import CPulse
import Glibc

/// A `pa_proplist` as a dictionary: every property with a string value (`pa_proplist_iterate`,
/// `pa_proplist_gets`); binary values are left out, and so is what passes `ProplistBounds`.
func decodeProplist(_ proplist: OpaquePointer?) -> [String: String] {
    guard let proplist else { return [:] }
    var properties: [String: String] = [:]
    var state: UnsafeMutableRawPointer?
    while properties.count < ProplistBounds.properties, let key = pa_proplist_iterate(proplist, &state) {
        guard strlen(key) <= ProplistBounds.keyBytes, let value = pa_proplist_gets(proplist, key),
              strlen(value) <= ProplistBounds.valueBytes else { continue }
        properties[String(cString: key)] = String(cString: value)
    }
    return properties
}

/// What one property list may cost the daemon: a client names its own properties, as many and as
/// long as it likes (a packet of the native protocol may carry megabytes). Real ones are far
/// below: a PipeWire stream has ~40 properties, none longer than a window title. Past the bounds
/// a property is left out, not cut: a cut value could match an app rule it does not name.
enum ProplistBounds {
    /// Properties kept per list (the stream's and its client's are bounded each).
    static let properties = 128
    static let keyBytes = 256
    static let valueBytes = 2048
}

/// A `pa_cvolume` as its raw channel values.
func decodeVolume(_ volume: pa_cvolume) -> ChannelVolume {
    var copy = volume
    let count = min(Int(volume.channels), Int(PA_CHANNELS_MAX))
    let channels = withUnsafeBytes(of: &copy.values) { raw in
        Array(raw.bindMemory(to: pa_volume_t.self).prefix(count))
    }
    return ChannelVolume(channels: channels)
}

/// A `pa_cvolume` with `volume`'s channels (at most `PA_CHANNELS_MAX`), nil when it has none or a
/// channel above `PA_VOLUME_MAX` (the server would reject it).
func encodeVolume(_ volume: ChannelVolume) -> pa_cvolume? {
    guard !volume.channels.isEmpty, volume.channels.count <= Int(PA_CHANNELS_MAX),
          volume.channels.allSatisfy({ $0 <= ChannelVolume.max }) else { return nil }
    var encoded = pa_cvolume()
    encoded.channels = UInt8(volume.channels.count)
    withUnsafeMutableBytes(of: &encoded.values) { raw in
        let values = raw.bindMemory(to: pa_volume_t.self)
        for (index, value) in volume.channels.enumerated() { values[index] = value }
    }
    return encoded
}

/// A C string, or nil.
func optionalString(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// `PA_INVALID_INDEX` as nil.
func validIndex(_ index: UInt32) -> UInt32? {
    index == UInt32.max ? nil : index
}
