import DBus
import Posix
#if canImport(Glibc)
import Glibc
#endif

/// `mprisd setup [--desktop D] [--dry-run]` and `mprisd setup --undo`: the desktop's media keys
/// and BlueZ's mpris-proxy made to follow the daemon, every value recorded (`SetupRecord`) before
/// it is changed, and undone exactly. Running setup again changes nothing: the plan is made from
/// the values as they were before the first setup, and a value already as planned is left alone.
enum SetupProgram {
    static func run(desktop override: SetupDesktop?, dryRun: Bool, undo: Bool, writeConfig: Bool = false) -> Int32 {
        let session = try? Connection(bus: .session)
        defer { session?.close() }
        let stores = SetupStores(session: session)
        do {
            return undo ? try self.undo(stores, dryRun: dryRun) : try setup(stores, override, dryRun: dryRun, writeConfig: writeConfig)
        } catch {
            Output.error("mprisd setup: \(error)")
            return ExitStatus.failure
        }
    }

    /// The path of `mprisd-control` for the bindings: the one beside this program (as
    /// installed: /usr/bin), else the name for the desktop's `PATH` to find.
    static var controlProgram: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "mprisd-control" }
        let own = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = own.lastIndex(of: "/") else { return "mprisd-control" }
        let sibling = String(own[..<slash]) + "/mprisd-control"
        return access(sibling, X_OK) == 0 ? sibling : "mprisd-control"
    }

    static func setup(_ stores: SetupStores, _ override: SetupDesktop?, dryRun: Bool, writeConfig: Bool) throws(SetupError) -> Int32 {
        guard let desktop = override ?? SetupDesktop.current else {
            throw SetupError("no desktop known from XDG_CURRENT_DESKTOP; name one with --desktop (\(SetupDesktop.names))")
        }
        var record = try SetupRecord.load() ?? SetupRecord(desktop: desktop.rawValue)
        guard record.desktop == desktop.rawValue else {
            throw SetupError("already set up for \(record.desktop): run 'mprisd setup --undo' first")
        }
        func original(_ store: SetupChange.Store, _ key: String) throws(SetupError) -> String? {
            if let before = record.before(store, key) { return before }
            return try stores.read(store, key)
        }
        let control = controlProgram
        var plan: [SetupChange]
        switch desktop {
        case .gnome: plan = try GnomeMediaKeys.plan(control: control) { key throws(SetupError) in try original(.dconf, key) }
        case .sway, .i3, .hyprland:
            guard let manager = TilingKeys.Manager(rawValue: desktop.rawValue) else { throw SetupError("no window manager \(desktop.rawValue)") }
            plan = try TilingKeys.plan(manager, control: control, writeConfig: writeConfig) { key throws(SetupError) in try original(.file, key) }
        case .xfce: plan = try XfceMediaKeys.plan(stores, control: control)
        case .kde: plan = try KDEMediaKeys.plan(stores, control: control) { key throws(SetupError) in try original(.kglobalaccel, key) }
        }
        plan += try MPRISProxySetup.plan(stores) { store throws(SetupError) in try original(store, MPRISProxySetup.unit) }
        var changed = 0
        var lastPurpose: String?
        for var change in plan {
            let now = try stores.read(change.store, change.key)
            guard now != change.after else { continue }
            changed += 1
            // One line per purpose (a shortcut is three keys); the dry run names every key.
            if change.purpose != lastPurpose { Output.out("\(dryRun ? "would change" : "changed"): \(change.purpose)") }
            lastPurpose = change.purpose
            if dryRun { Output.out("    \(change.described(from: now))") }
            guard !dryRun else { continue }
            if let index = record.changes.firstIndex(where: { $0.store == change.store && $0.key == change.key }) {
                record.changes[index].after = change.after
                record.changes[index].added = change.added
            } else {
                change.before = now
                record.changes.append(change)
            }
            try record.save()
            try stores.write(change.store, change.key, change.after)
        }
        if changed == 0 { Output.out("nothing to change: \(desktop.rawValue) already follows the daemon") }
        if case let manager? = TilingKeys.Manager(rawValue: desktop.rawValue), !writeConfig {
            Output.out("add this line to \(manager.configuration) (if it is not there), then reload:\n  \(manager.include)")
        }
        if !dryRun, changed > 0 { Output.out("undo with: mprisd setup --undo") }
        return ExitStatus.success
    }

    static func undo(_ stores: SetupStores, dryRun: Bool) throws(SetupError) -> Int32 {
        guard var record = try SetupRecord.load() else {
            Output.out("nothing to undo: setup has not changed anything")
            return ExitStatus.success
        }
        // The stages from the last, each in the order setup made its changes (SetupChange.stage).
        let order = record.changes.enumerated().sorted { ($0.element.stage, -$0.offset) > ($1.element.stage, -$1.offset) }
        var failed = 0
        var putBack = 0
        for (_, change) in order {
            let now = try stores.read(change.store, change.key)
            var target = change.before
            if now != change.after {
                if let added = change.added, change.store == .file, let text = now {
                    // A configuration the user edited since: only setup's lines come out.
                    target = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                        .filter { !added.contains($0) }.joined(separator: "\n")
                } else if let added = change.added, change.store == .dconf, let text = now, let list = GVariantStrings.parse(text) {
                    // A list the user added to since: only what setup added comes out.
                    let kept = list.filter { !added.contains($0) }
                    target = kept.isEmpty && change.before == nil ? nil : GVariantStrings.text(kept)
                } else {
                    Output.out("left as it is: \(change.key) was changed since setup (now \(now.map { $0.count > 60 ? $0.prefix(57) + "…" : $0 } ?? "unset"))")
                    record.changes.removeAll { $0 == change }
                    continue
                }
            }
            guard now != target else {
                record.changes.removeAll { $0 == change }
                continue
            }
            if dryRun { Output.out("would put back: \(change.key)  (\(now ?? "unset") → \(target ?? "unset"))") }
            guard !dryRun else { continue }
            do {
                try stores.write(change.store, change.key, target)
                putBack += 1
                record.changes.removeAll { $0 == change }
                try record.save()
            } catch {
                failed += 1
                Output.error("mprisd setup: \(error)")
            }
        }
        if !dryRun {
            try record.save()
            Output.out("put back \(putBack) value\(putBack == 1 ? "" : "s") setup had changed" + (record.changes.isEmpty ? "" : "; \(record.changes.count) could not be: run --undo again"))
        }
        return failed == 0 ? ExitStatus.success : ExitStatus.failure
    }
}
