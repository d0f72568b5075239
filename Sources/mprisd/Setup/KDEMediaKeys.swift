import SystemContext

/// KDE Plasma's media keys follow the arbiter (issue 25), through kglobalaccel, which holds every
/// global shortcut of a Plasma session (`org.kde.kglobalaccel`, 5.27 and 6). Plasma's Media
/// Controller (its applet in 5.27, the kded module in 6) owns the media keys as the component
/// `mediacontrol` and sends them to a player it picks. Setup:
///
/// 1. releases each of those shortcuts that holds a key (`setForeignShortcut` to none, as
///    System Settings does);
/// 2. writes a launcher per key, `$XDG_DATA_HOME/kglobalaccel/mprisd-ACTION.desktop` running
///    `mprisd-control ACTION --key` — kglobalaccel runs the `Exec` of a component named after
///    such a file (its `_launch` shortcut), and loads the files of that folder at each start;
/// 3. gives each launcher the keys the Media Controller held (its defaults when it has not
///    registered them yet).
///
/// A held key repeats (kglobalaccel runs the launcher for each auto-repeat), which `--key` makes
/// one press.
enum KDEMediaKeys {
    static let component = "mediacontrol"

    /// Qt's key codes (`Qt::Key_Media…`), as kglobalaccel keeps keys.
    static let mediaPlay = 0x0100_0080, mediaStop = 0x0100_0081, mediaPrevious = 0x0100_0082
    static let mediaNext = 0x0100_0083, mediaPause = 0x0100_0085

    /// The Media Controller's actions, what each runs, and their default keys.
    static let actions: [(action: String, control: String, title: String, keys: [Int])] = [
        ("playpausemedia", "play-pause", "Play/Pause", [mediaPlay]), ("pausemedia", "pause", "Pause", [mediaPause]),
        ("stopmedia", "stop", "Stop", [mediaStop]), ("nextmedia", "next", "Next", [mediaNext]),
        ("previousmedia", "previous", "Previous", [mediaPrevious]),
    ]

    /// The kglobalaccel key of an action: its id's four parts (component, action, and their
    /// names shown in System Settings), joined by `|`.
    static func key(_ component: String, _ action: String, _ componentName: String, _ actionName: String) -> String {
        [component, action, componentName, actionName].joined(separator: "|")
    }

    static func launcher(_ control: String) -> String { "mprisd-\(control).desktop" }

    static func launcherFile(_ control: String) -> String { UserDirectories.dataHome + "/kglobalaccel/" + launcher(control) }

    static func launcherContents(_ title: String, command: String) -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=mprisd: \(title)
        Comment=Written by mprisd setup: the media key goes to the player the daemon picks
        Exec=\(command)
        NoDisplay=true

        """
    }

    /// `original`: a key's value before setup first ran; `registered`: the Media Controller's
    /// actions kglobalaccel knows now (action → its four-part id).
    static func plan(_ stores: SetupStores, control: String,
                     original: (String) throws(SetupError) -> String?) throws(SetupError) -> [SetupChange] {
        let registered = try stores.kglobalaccelActions(component)
        var released: [SetupChange] = []
        var launchers: [SetupChange] = []
        var bindings: [SetupChange] = []
        for (action, controlAction, title, defaults) in actions {
            var keys = defaults
            if let id = registered[action] {
                let key = key(id[0], id[1], id[2], id[3])
                let held = KGlobalAccelKeys.parse(try original(key) ?? "")
                keys = held
                if !held.isEmpty {
                    released.append(SetupChange(store: .kglobalaccel, key: key, before: nil, after: "", stage: 0,
                                                purpose: "Plasma's Media Controller lets go of its \(title) key"))
                }
            }
            guard !keys.isEmpty else { continue }
            let command = "\(control) \(controlAction) --key"
            launchers.append(SetupChange(store: .file, key: launcherFile(controlAction), before: nil,
                                         after: launcherContents(title, command: command), stage: 1,
                                         purpose: "a launcher for kglobalaccel: \(command)"))
            bindings.append(SetupChange(store: .kglobalaccel, key: self.key(launcher(controlAction), "_launch", "mprisd: \(title)", "mprisd: \(title)"),
                                        before: nil, after: KGlobalAccelKeys.text(keys), stage: 2,
                                        purpose: "\(title) runs mprisd-control \(controlAction)"))
        }
        return released + launchers + bindings
    }
}

/// kglobalaccel's keys of one shortcut (Qt key codes, modifiers included) as the setup record
/// keeps them: comma-separated numbers, "" for none.
enum KGlobalAccelKeys {
    static func parse(_ text: String) -> [Int] {
        text.split(separator: ",").compactMap { Int($0) }.filter { $0 != 0 }
    }

    static func text(_ keys: [Int]) -> String {
        keys.map(String.init).joined(separator: ",")
    }
}
