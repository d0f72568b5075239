import MPRISDirectory
/// What `mprisd` (the daemon) was asked to do.
public struct DaemonOptions: Sendable {
    /// The program's version, for the log and the status document.
    public var version: String
    /// The ALSA control device for jacks and volume; nil: the card of the default output.
    public var control: String?
    public var verbose = false
    /// The end of an implicit call (an app without our API) notifies the sessions it
    /// interrupted, so paused players resume (`--keep-paused-after-calls` turns it off).
    public var resumeAfterCalls = true
    /// logind's `PrepareForSleep(true)` pauses every playing session, none resumed after the
    /// wake-up (`--pause-before-sleep=false` turns it off).
    public var pauseBeforeSleep = true
    /// Players the media keys never reach (`--ignore-players`, issue 16).
    public var ignorePlayers = PlayerIgnoreList()

    public init(version: String, control: String? = nil, verbose: Bool = false) {
        self.version = version
        self.control = control
        self.verbose = verbose
    }
}
