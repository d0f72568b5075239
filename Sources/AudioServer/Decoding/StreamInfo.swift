import CPulse

/// A stream as the server sent it, before its client's properties are merged in.
struct RawStream {
    var stream: AudioStream
    /// The owning client's index, nil for streams of modules (loopbacks).
    var client: UInt32?
}

extension RawStream {
    /// From `pa_sink_input_info`.
    init(_ info: pa_sink_input_info) {
        self.init(stream: AudioStream(id: StreamID(.playback, info.index), isCorked: info.corked != 0,
                                      volume: decodeVolume(info.volume), isMuted: info.mute != 0,
                                      deviceIndex: info.sink, properties: decodeProplist(info.proplist)),
                  client: validIndex(info.client))
        if stream.properties["media.name"] == nil, let name = optionalString(info.name) {
            stream.properties["media.name"] = name
        }
    }

    /// From `pa_source_output_info`.
    init(_ info: pa_source_output_info) {
        self.init(stream: AudioStream(id: StreamID(.capture, info.index), isCorked: info.corked != 0,
                                      volume: decodeVolume(info.volume), isMuted: info.mute != 0,
                                      deviceIndex: info.source, properties: decodeProplist(info.proplist)),
                  client: validIndex(info.client))
        if stream.properties["media.name"] == nil, let name = optionalString(info.name) {
            stream.properties["media.name"] = name
        }
    }

    /// The stream as the inventory shows it: its client's properties under its own (a property the
    /// stream sets wins), and the named fields read from the merged properties.
    func merged(clientProperties: [String: String]?) -> AudioStream {
        var merged = stream
        if let clientProperties {
            merged.properties = clientProperties.merging(stream.properties) { _, own in own }
        }
        let properties = merged.properties
        merged.applicationName = properties["application.name"]
        merged.binary = properties["application.process.binary"]
        merged.processID = properties["application.process.id"].flatMap { Int32($0) }
        merged.flatpakID = flatpakID(properties)
        merged.role = properties["media.role"]
        merged.mediaName = properties["media.name"]
        return merged
    }
}

/// The Flatpak app id of a stream's properties. PipeWire puts the id the portal vouches for on
/// its clients (`pipewire.access.portal.app_id`): taken first. Else `application.id`, but only
/// when the properties say the client is sandboxed (`pipewire.access` = "flatpak", or an
/// `application.flatpak` marker): outside a sandbox `application.id` is any app's own id
/// ("org.gnome.Rhythmbox"), not a Flatpak's. PulseAudio knows nothing of Flatpak: there it is
/// nil unless the app marked itself.
func flatpakID(_ properties: [String: String]) -> String? {
    if let portal = properties["pipewire.access.portal.app_id"], !portal.isEmpty { return portal }
    let sandboxed = properties["pipewire.access"] == "flatpak" || properties["application.flatpak"] != nil
    guard sandboxed, let id = properties["application.id"], !id.isEmpty else { return nil }
    return id
}
