import SessionCore

/// What the classifier made of one stream, and why: the implicit session's class and
/// configuration, whether the stream begins a call, and the reason `mprisd status` and the log
/// show for it.
public struct StreamClass: Sendable, Hashable, CustomStringConvertible {
    /// Why a stream has its class, in the order they are asked.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The user's rule on this line of the apps file.
        case rule(line: Int)
        /// The stream's `media.role`, as the server reported it.
        case role(String)
        /// A role that may stand for others too (`MediaRole.roles`): as reported, and the others.
        case ambiguousRole(String, others: [MediaRole])
        /// The built-in name table (`KnownApps`), by this entry's name.
        case nameTable(String)
        /// Nothing known: playback that mixes.
        case `default`

        public var description: String {
            switch self {
            case .rule(let line): "rule line \(line)"
            case .role(let role): "role: \(role)"
            case .ambiguousRole(let role, let others):
                "role: \(role), or \(others.map(\.rawValue).joined(separator: " or ")) through pipewire-pulse"
            case .nameTable(let name): "name table: \(name)"
            case .default: "default"
            }
        }
    }

    public var appClass: AppClass
    /// The implicit session's configuration; nil for `ignore` (no session at all).
    public var configuration: SessionConfiguration?
    /// Only a call if playback of the same process is held with it for a minimum time (a
    /// browser's generic input); the timing is the caller's.
    public var isHeuristic: Bool
    /// This stream is a call's capture stream: it begins the call while it records (G-CALLS).
    /// Never for the capture of a monitor source (a recorder or visualiser of what plays).
    /// A heuristic one counts only once the caller's timing says so.
    public var isCallCapture: Bool
    /// Its role reads back the same for a class that behaves otherwise (a pulse client's `video`
    /// through pipewire-pulse may be an `animation` sound, `MediaRole`): its session activates only
    /// once the stream has lasted `CallTiming.ambiguousRoleWait`. A sound shorter than that is
    /// left to mix; a video is the video it says it is, a few seconds late.
    public var isAmbiguousRole: Bool
    public var reason: Reason

    public init(appClass: AppClass, configuration: SessionConfiguration?, isHeuristic: Bool = false,
                isCallCapture: Bool = false, isAmbiguousRole: Bool = false, reason: Reason) {
        self.appClass = appClass
        self.configuration = configuration
        self.isHeuristic = isHeuristic
        self.isCallCapture = isCallCapture
        self.isAmbiguousRole = isAmbiguousRole
        self.reason = reason
    }

    /// Never ducked, muted or interrupted (a screen reader).
    public var isProtected: Bool { appClass.isProtected }

    /// `call (name table: ZOOM VoiceEngine)`, `heuristic call (name table: Chromium input)`,
    /// `playAndRecord/voiceChat (rule line 3)`, `mixing (default)`.
    public var description: String {
        let name: String
        switch appClass {
        case .custom: name = configuration.map { "\($0)" } ?? "custom"
        default: name = isHeuristic ? "heuristic \(appClass)" : "\(appClass)"
        }
        return "\(name) (\(reason))"
    }
}
