/// What one client of the server can make the daemon keep (issue 24): at most `streamsPerClient`
/// streams, as the bus's quotas bound what one connection can make it keep. A client's streams
/// past that are not followed for as long as they live — no fetch for their events, no place in
/// the inventory, so no policy acts on them — and the client is named once in the log. Together
/// with the bounds of each property list (`ProplistBounds`) a client costs at most a few
/// megabytes, whatever it opens; the server's own limit on clients (64 on both servers) bounds
/// the rest.
///
/// Streams of no client (a module's loopback) are not counted: the server's modules make them.
extension LinkCore {
    /// The streams of one client that are followed. 64, as the sessions of one bus connection:
    /// a browser playing in every tab has one stream per playing tab.
    static let streamsPerClient = 64

    /// Whether `raw` is followed: a stream already followed, one of no client, or one within its
    /// client's quota. A stream turned away is remembered (`overQuota`) until it ends.
    func admits(_ raw: RawStream) -> Bool {
        let id = raw.stream.id
        guard rawStreams[id] == nil, let client = raw.client,
              (streamsByClient[client]?.count ?? 0) >= Self.streamsPerClient else { return true }
        overQuota.insert(id)
        if quotaLogged.insert(client).inserted {
            let name = raw.merged(clientProperties: clients[client]).displayName
            log("\(name) (client #\(client)) has \(Self.streamsPerClient) streams followed: a stream it opens while it has"
                + " that many is not followed (not ducked, muted or paused) for as long as it lasts")
        }
        return false
    }

    /// A stream's event that needs no fetch: one turned away (`admits`), until its removal.
    func isOverQuota(_ id: StreamID, removed: Bool) -> Bool {
        guard overQuota.contains(id) else { return false }
        if removed { overQuota.remove(id) }
        return true
    }

    /// A client that went: its quota's note goes with it.
    func forgetQuota(of client: UInt32) {
        quotaLogged.remove(client)
    }
}
