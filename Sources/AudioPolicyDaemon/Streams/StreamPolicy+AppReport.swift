import AppClassification
import AudioPolicyClient
import AudioServer

/// What `mprisd status` and `mprisd apps` show of the apps without our API: each app's class, why,
/// its implicit session and what that session is doing now; apps whose streams are gone are kept
/// for a while (`ImplicitState.goneLimit`) so a rule can still be written for them.
extension StreamPolicy {
    /// The apps seen, present first (any thread).
    public func appReport() -> [PolicyStatus.App] {
        state.withLock { state in
            let present = state.implicit.rows.sorted { $0.key < $1.key }.map { key, row -> PolicyStatus.App in
                var row = row
                let number = state.implicit.sessions[key]?.number
                row.state = Self.describe(number.flatMap { state.sessions[$0] }, isActive: state.implicit.sessions[key]?.isActive ?? false,
                                          hasSession: number != nil, waiting: state.implicit.waiting[key], row: row)
                return row
            }
            return present + state.implicit.gone
        }
    }

    func updateRows(_ plan: ImplicitPlan, sessions: [AppKey: ImplicitSession], in state: inout State) {
        var rows: [AppKey: PolicyStatus.App] = [:]
        for (key, app) in plan.apps {
            let roles = app.streams.compactMap { state.inventory.streams[$0]?.role }
            rows[key] = Self.row(of: app.face, app.streamClass, session: sessions[key]?.number, role: roles.first,
                                 streams: app.streams)
        }
        for (key, ignored) in plan.ignored where rows[key] == nil {
            rows[key] = Self.row(of: ignored.stream, ignored.streamClass, session: nil, role: ignored.stream.role,
                                 streams: [ignored.stream.id])
        }
        for (key, row) in state.implicit.rows where rows[key] == nil {
            var gone = row
            gone.present = false
            gone.streams = []
            gone.state = "gone"
            gone.session = nil
            state.implicit.gone.removeAll { $0.application == gone.application && $0.binary == gone.binary }
            state.implicit.gone.insert(gone, at: 0)
        }
        if state.implicit.gone.count > ImplicitState.goneLimit {
            state.implicit.gone.removeLast(state.implicit.gone.count - ImplicitState.goneLimit)
        }
        state.implicit.rows = rows
        state.implicit.waiting = plan.apps.compactMapValues(\.waiting)
    }

    private static func row(of face: AudioStream, _ found: StreamClass, session: UInt64?, role: String?,
                            streams: [StreamID]) -> PolicyStatus.App {
        PolicyStatus.App(application: face.applicationName ?? face.binary ?? "unknown", binary: face.binary,
                         pid: face.processID, flatpak: face.flatpakID, role: role,
                         appClass: found.appClass.rawValue, configuration: found.configuration.map { "\($0)" },
                         reason: "\(found.reason)", session: session, state: "",
                         streams: streams.map { "\($0.direction.rawValue) \($0.index)" })
    }

    /// "ZOOM VoiceEngine (pid 4242)".
    static func label(of app: ImplicitPlan.App) -> String {
        "\(app.face.applicationName ?? app.face.binary ?? "unknown") (\(app.key))"
    }

    /// What an app's session is doing now, for the status.
    private static func describe(_ managed: Managed?, isActive: Bool, hasSession: Bool, waiting: String?,
                                 row: PolicyStatus.App) -> String {
        guard hasSession else {
            if row.appClass == AppClass.ignore.rawValue { return "ignored" }
            // A browser's input held with its playback for less than the minimum time yet.
            return waiting.map { "no session yet (\($0))" } ?? "no session (records only)"
        }
        var parts: [String] = []
        if let managed {
            if managed.isHeld { parts.append("waiting for the call to end (muted)") }
            else if managed.isInterrupted { parts.append(managed.mutesOnInterruption ? "interrupted (muted)" : "interrupted") }
            else if isActive { parts.append("active") }
            if managed.isSilenceable && managed.isSilentMode { parts.append("silenced by silent mode") }
            if managed.isSilenceable && managed.isLocked { parts.append("silenced by the screen lock") }
            if managed.isDucked && managed.ducksStreams { parts.append("ducked") }
        }
        if parts.isEmpty { parts.append(isActive ? "active" : "inactive") }
        if let waiting { parts.append(waiting) }
        return parts.joined(separator: ", ")
    }
}
