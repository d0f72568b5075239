/// The audio server's part of the status document: which server the daemon is connected to, the
/// streams of every app on it and its devices (docs/audio-policy-api.md, "Status document").
///
/// Plain values with the server's words as strings ("playback", "sink", "yes"): apps link this
/// module, and it must not bring libpulse or the daemon's `AudioServer` module with it. The daemon
/// converts its inventory into these (AudioPolicyDaemon's `AudioServerStatus`).
extension PolicyStatus {
    /// The connection to the audio server (PulseAudio, or PipeWire through pipewire-pulse).
    public struct AudioServer: Codable, Sendable, Hashable {
        public var connected: Bool
        /// The server's name ("pulseaudio", "PulseAudio (on PipeWire 0.3.65)"); nil while not
        /// connected.
        public var name: String?
        public var version: String?
        /// Where the daemon looks for it: a socket path, a `PULSE_SERVER` value, or why it
        /// cannot know.
        public var address: String
        /// Why it is not connected ("no server at /run/user/1000/pulse/native"); nil when connected.
        public var reason: String?
        /// Who pauses an MPRIS player whose output device goes away: "mprisd", or "WirePlumber"
        /// (its `linking.pause-playback`, WirePlumber ≥ 0.5.11); nil while not connected.
        public var deviceLossPausedBy: String?

        public init(connected: Bool, name: String? = nil, version: String? = nil, address: String,
                    reason: String? = nil) {
            self.connected = connected
            self.name = name
            self.version = version
            self.address = address
            self.reason = reason
        }
    }

    /// One app's stream: a playback stream (sink input) or a capture stream (source output).
    /// What the app claims (name, binary, pid, role) is shown as claimed: the server checks none
    /// of it.
    public struct Stream: Codable, Sendable, Hashable {
        /// "playback" or "capture".
        public var direction: String
        /// The server's index (sink inputs and source outputs are counted apart), as `pactl` shows it.
        public var index: UInt32
        /// `application.name`.
        public var application: String?
        /// `application.process.binary`.
        public var binary: String?
        /// `application.process.id`.
        public var pid: Int32?
        /// `media.role` as the server reports it ("music", "phone", "Navigation").
        public var role: String?
        /// `media.name`.
        public var mediaName: String?
        /// The name of the sink (playback) or source (capture) it is connected to; nil if unknown.
        public var device: String?
        /// The app paused (corked) its own stream.
        public var corked: Bool
        /// The loudest channel's volume: 1.0 is 100 %, above it amplified (sliders go to 1.5).
        public var volume: Double
        public var muted: Bool
        /// A capture of a monitor source (what a sink plays: a screen recorder, a level meter):
        /// never counted as recording from a microphone.
        public var monitor: Bool
        /// What the daemon pairs it with (a session, an MPRIS player); nil: nothing.
        public var session: String?
        /// What the daemon does to it now ("ducked to 30%", "muted for a call"); nil: nothing.
        public var action: String?

        public init(direction: String, index: UInt32, application: String? = nil, binary: String? = nil,
                    pid: Int32? = nil, role: String? = nil, mediaName: String? = nil, device: String? = nil,
                    corked: Bool = false, volume: Double = 1, muted: Bool = false, monitor: Bool = false,
                    session: String? = nil, action: String? = nil) {
            self.direction = direction
            self.index = index
            self.application = application
            self.binary = binary
            self.pid = pid
            self.role = role
            self.mediaName = mediaName
            self.device = device
            self.corked = corked
            self.volume = volume
            self.muted = muted
            self.monitor = monitor
            self.session = session
            self.action = action
        }
    }

    /// A sink (output) or a source (input) of the server.
    public struct Device: Codable, Sendable, Hashable {
        /// "sink" or "source".
        public var kind: String
        /// The server's name ("alsa_output.pci-0000_00_1f.3.analog-stereo"), what `pactl` takes.
        public var name: String
        /// The human name ("Built-in Audio Analog Stereo").
        public var description: String
        /// The server's default sink or source.
        public var isDefault: Bool
        /// Its active port is not reported unplugged.
        public var available: Bool
        /// A monitor source (what a sink plays), not a microphone.
        public var monitor: Bool
        public var muted: Bool
        public var ports: [DevicePort]
        public var activePort: String?

        private enum CodingKeys: String, CodingKey {
            case kind, name, description, isDefault = "default", available, monitor, muted, ports, activePort
        }

        public init(kind: String, name: String, description: String = "", isDefault: Bool = false,
                    available: Bool = true, monitor: Bool = false, muted: Bool = false,
                    ports: [DevicePort] = [], activePort: String? = nil) {
            self.kind = kind
            self.name = name
            self.description = description
            self.isDefault = isDefault
            self.available = available
            self.monitor = monitor
            self.muted = muted
            self.ports = ports
            self.activePort = activePort
        }
    }

    /// A port of a device (a jack, a speaker).
    public struct DevicePort: Codable, Sendable, Hashable {
        public var name: String
        public var description: String
        /// "yes" (plugged in), "no" (unplugged) or "unknown" (the hardware cannot tell).
        public var available: String

        public init(name: String, description: String = "", available: String = "unknown") {
            self.name = name
            self.description = description
            self.available = available
        }
    }
}
