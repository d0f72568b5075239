import CPulse

/// The server's stream-restore database (`pa_ext_stream_restore_read` / `…_write`), which both
/// servers implement: PulseAudio with module-stream-restore; pipewire-pulse, which hands the
/// entries to WirePlumber's restore-stream (role names as pipewire-pulse maps them: an entry
/// for "music" lands as "Music"). Measured on both: an entry written for a key is applied to
/// the next stream of that key (volume and mute). On pipewire-pulse a read right after a write
/// may not show it yet (WirePlumber stores it asynchronously), and a key is listed only once
/// something was saved for it; PulseAudio lists every key it has seen, at once.
extension AudioServerLink {
    /// Every entry of the database; `.failure` when not connected or the server has no such
    /// database. On the link's thread (at once, on the caller's, when not connected).
    public func readRestoreEntries(completion: @escaping @Sendable (Result<[RestoreEntry], AudioServerError>) -> Void) {
        onLoop(else: { _ in completion(.failure(AudioServerError("not connected"))) }) { $0.readRestoreEntries(completion) }
    }

    /// The entry for `key` (nil: none saved).
    public func readRestoreEntry(_ key: String,
                                 completion: @escaping @Sendable (Result<RestoreEntry?, AudioServerError>) -> Void) {
        readRestoreEntries { result in completion(result.map { entries in entries.first { $0.key == key } }) }
    }

    /// Saves `volume` (nil: none) and `muted` for `key`, replacing that key's entry and no other
    /// (`PA_UPDATE_REPLACE`: in module-stream-restore `PA_UPDATE_SET` clears the whole database
    /// first, and `PA_UPDATE_MERGE` keeps an existing entry), not applied to streams that exist now. The volume is saved on the
    /// default channel map of its channel count (`pa_channel_map_init_auto`). `completion`: whether
    /// the server accepted it.
    public func writeRestoreEntry(_ key: String, volume: ChannelVolume?, muted: Bool, device: String? = nil,
                                  completion: @escaping Completion = { _ in }) {
        let entry = RestoreEntry(key: key, volume: volume, isMuted: muted, device: device)
        onLoop(else: completion) { $0.writeRestoreEntry(entry, completion) }
    }

    /// The key under which the server restores `stream` (see `AudioStream.restoreKey`).
    public static func restoreKey(of stream: AudioStream) -> String? {
        stream.restoreKey
    }
}

extension LinkCore {
    func readRestoreEntries(_ completion: @escaping @Sendable (Result<[RestoreEntry], AudioServerError>) -> Void) {
        perform({ (operation: PendingOperation, ok: Bool) in
            completion(ok ? .success(operation.collected)
                          : .failure(AudioServerError("no stream-restore database, or the connection ended")))
        }) { context, userdata in
            pa_ext_stream_restore_read(context, { _, info, eol, userdata in
                guard let userdata else { return }
                let operation = Unmanaged<PendingOperation>.fromOpaque(userdata).takeUnretainedValue()
                if eol != 0 { return operation.finish(eol > 0) }
                guard let info = info?.pointee else { return }
                operation.collected.append(RestoreEntry(
                    key: optionalString(info.name) ?? "",
                    volume: info.volume.channels > 0 ? decodeVolume(info.volume) : nil,
                    isMuted: info.mute != 0, device: optionalString(info.device).flatMap { $0.isEmpty ? nil : $0 }))
            }, userdata)
        }
    }

    func writeRestoreEntry(_ entry: RestoreEntry, _ completion: @escaping AudioServerLink.Completion) {
        // Connected first: the `pa_channel_map`/`pa_cvolume` helpers below are libpulse's, loaded
        // only when there is a server (PulseLibrary).
        guard isConnected else { return completion(false) }
        var info = pa_ext_stream_restore_info()
        if let volume = entry.volume {
            guard let encoded = encodeVolume(volume) else { return completion(false) }
            info.volume = encoded
            pa_channel_map_init_auto(&info.channel_map, UInt32(encoded.channels), PA_CHANNEL_MAP_DEFAULT)
        } else {
            pa_channel_map_init(&info.channel_map)
            pa_cvolume_init(&info.volume)
        }
        info.mute = entry.isMuted ? 1 : 0
        entry.key.withCString { key in
            withOptionalCString(entry.device) { device in
                info.name = key
                info.device = device
                perform(completion) { context, userdata in
                    pa_ext_stream_restore_write(context, PA_UPDATE_REPLACE, &info, 1, 0, PendingOperation.callback, userdata)
                }
            }
        }
    }
}

private func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
