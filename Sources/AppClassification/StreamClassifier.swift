import AudioServer
import SessionCore

/// Classifies a stream of an app that knows nothing of mprisd into the implicit session it
/// belongs to. Pure: the same stream and rules give the same answer; nothing is acted on here.
///
/// Asked in this order, the first answer wins:
/// 1. the user's rules (`AppRules`: the user knows what an app means, G-CAT-SEMANTIC);
/// 2. `media.role` (`MediaRole`), when the server reports one that is understood (one that may
///    stand for another class — a pulse client's `video` through pipewire-pulse — is held:
///    `StreamClass.isAmbiguousRole`);
/// 3. the built-in name table (`KnownApps`) of apps that tag nothing;
/// 4. otherwise playback that mixes: an unknown app is never paused or muted on a guess, and
///    interrupts nothing (G-CAT-CONTEXT).
public struct StreamClassifier: Sendable, Hashable {
    public var rules: AppRules

    public init(rules: AppRules = AppRules()) {
        self.rules = rules
    }

    /// The class of `stream`. `capturesMonitor`: the stream records a monitor source (what
    /// plays, not a microphone), which never begins a call whatever the app is.
    public func classify(_ stream: AudioStream, capturesMonitor: Bool = false) -> StreamClass {
        var found = base(stream)
        let isCall = found.configuration?.traits.isCall ?? false
        found.isCallCapture = isCall && stream.id.direction == .capture && !capturesMonitor
        return found
    }

    /// The class of `stream` of `inventory`, whose devices say whether it records a monitor.
    public func classify(_ stream: AudioStream, in inventory: AudioInventory) -> StreamClass {
        classify(stream, capturesMonitor: inventory.isMonitorCapture(stream))
    }

    private func base(_ stream: AudioStream) -> StreamClass {
        if let rule = rules.rule(for: stream) {
            switch rule.action {
            case .appClass(let appClass):
                return StreamClass(appClass: appClass, configuration: appClass.configuration, reason: .rule(line: rule.line))
            case .configuration(let configuration):
                return StreamClass(appClass: .custom, configuration: configuration, reason: .rule(line: rule.line))
            }
        }
        if let text = stream.role, let role = MediaRole(text) {
            let others = MediaRole.roles(text, throughPipeWirePulse: stream.isPipeWirePulseClient)
                .filter { $0.appClass != role.appClass }
            guard others.isEmpty else {
                return StreamClass(appClass: role.appClass, configuration: role.configuration, isAmbiguousRole: true,
                                   reason: .ambiguousRole(text, others: others))
            }
            return StreamClass(appClass: role.appClass, configuration: role.configuration, reason: .role(text))
        }
        if let entry = KnownApps.entry(for: stream) {
            // G-CALLS: every entry is a call client or a browser's input.
            return StreamClass(appClass: .call, configuration: AppClass.call.configuration,
                               isHeuristic: entry.isHeuristic, reason: .nameTable(entry.name))
        }
        return StreamClass(appClass: .mixing, configuration: AppClass.mixing.configuration, reason: .default)
    }
}

extension AudioStream {
    /// A libpulse client of pipewire-pulse (`client.api`), whose role pipewire-pulse renamed
    /// twice on the way (`MediaRole.pipeWireNames`).
    var isPipeWirePulseClient: Bool { properties["client.api"] == "pipewire-pulse" }
}
