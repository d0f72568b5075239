#if canImport(Glibc)
import Glibc
#endif
import DBus

/// How an app presents itself as an MPRIS player (`org.mpris.MediaPlayer2` properties).
public struct MPRISConfiguration: Sendable, Hashable {
    /// The bus name: `org.mpris.MediaPlayer2.<app>`, or its instance form on a clash.
    public var name: MPRISBusName
    /// `Identity`: the human-readable name of the app.
    public var identity: String
    /// `DesktopEntry`: the basename of the app's `.desktop` file (no `.desktop`), for its icon;
    /// nil to leave the property out.
    public var desktopEntry: String?
    /// `SupportedUriSchemes` (`as`), lower case (`file`, `http`); `OpenUri` refuses others.
    public var supportedURISchemes: [String]
    /// `SupportedMimeTypes` (`as`).
    public var supportedMIMETypes: [String]
    /// The process id in the instance name (`…instance<pid>`); this process's by default.
    public var processID: Int32
    /// Where the unique `mpris:trackid` paths live: `<prefix>/<n>`. Must be outside `/org/mpris`
    /// (the spec reserves it).
    public var trackPathPrefix: ObjectPath

    public init(name: MPRISBusName, identity: String, desktopEntry: String? = nil,
                supportedURISchemes: [String] = [], supportedMIMETypes: [String] = [],
                processID: Int32 = getpid(),
                trackPathPrefix: ObjectPath = MPRISConfiguration.defaultTrackPathPrefix) {
        self.name = name
        self.identity = identity
        self.desktopEntry = desktopEntry
        self.supportedURISchemes = supportedURISchemes
        self.supportedMIMETypes = supportedMIMETypes
        self.processID = processID
        self.trackPathPrefix = trackPathPrefix
    }

    /// `/org/mprisd/track`.
    public static let defaultTrackPathPrefix = ObjectPath(trusted: "/org/mprisd/track")
}
