import SessionCore

/// Which Bluetooth profiles make a device an audio output, and of which port type.
///
/// A device advertises its profiles as service-class UUIDs (`Device1.UUIDs`); a media transport
/// names the one profile it carries (`MediaTransport1.UUID`). Only profiles that can play sound
/// count: a phone (A2DP *source*, HFP *gateway*) or a keyboard is not a route.
enum BluezAudioProfiles {
    /// A2DP Audio Sink: the device plays what we stream (headphones, speakers).
    static let a2dpSink = "0000110b-0000-1000-8000-00805f9b34fb"
    /// A2DP Audio Source: as a transport's profile, the local end is the source streaming to the device.
    static let a2dpSource = "0000110a-0000-1000-8000-00805f9b34fb"
    /// Hands-Free unit (a headset with a microphone).
    static let handsFree = "0000111e-0000-1000-8000-00805f9b34fb"
    /// Hands-Free Audio Gateway: as a transport's profile, the local end is the gateway of a headset.
    static let handsFreeGateway = "0000111f-0000-1000-8000-00805f9b34fb"
    /// Headset Profile, headset role.
    static let headset = "00001108-0000-1000-8000-00805f9b34fb"
    /// Headset Profile, audio gateway role (transport side, as above).
    static let headsetGateway = "00001112-0000-1000-8000-00805f9b34fb"

    /// The port type of a device advertising `uuids`, or nil when none of them is an audio output.
    /// A2DP wins over HFP/HSP: a headset that offers both plays media over A2DP.
    static func portType(deviceUUIDs uuids: [String]) -> PortType? {
        let lowered = Set(uuids.map { $0.lowercased() })
        if lowered.contains(a2dpSink) { return .bluetoothA2DP }
        if lowered.contains(handsFree) || lowered.contains(headset) { return .bluetoothHFP }
        return nil
    }

    /// The port type of a transport carrying profile `uuid`, or nil for a profile that is not audio
    /// output to the device. Either end's UUID may appear (BlueZ names the local endpoint's).
    static func portType(transportUUID uuid: String) -> PortType? {
        switch uuid.lowercased() {
        case a2dpSink, a2dpSource: .bluetoothA2DP
        case handsFree, handsFreeGateway, headset, headsetGateway: .bluetoothHFP
        default: nil
        }
    }

    /// Transport states that mean the audio profile is connected and configured: `idle` (ready, not
    /// streaming), `pending` (streaming requested) and `active` (streaming).
    static let confirmingTransportStates: Set<String> = ["idle", "pending", "active"]
}
