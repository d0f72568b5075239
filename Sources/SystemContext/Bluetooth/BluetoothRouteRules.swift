import DBus
import SessionCore

/// Decides which BlueZ devices are audio routes right now, from the mirrored objects.
///
/// A device (`org.bluez.Device1`) is a route when all of these hold:
/// - `Connected` is true;
/// - its adapter (`Device1.Adapter`, else the parent path) is present and not `Powered == false`:
///   an adapter switched off or gone takes its devices' audio with it, even before BlueZ gets round
///   to announcing each device's disconnection;
/// - it offers an audio output profile: an A2DP sink in `UUIDs` (→ `bluetoothA2DP`) or an HFP/HSP
///   headset profile (→ `bluetoothHFP`), **or** a `org.bluez.MediaTransport1` whose `Device` is
///   this device, whose `UUID` is an audio profile and whose `State` is `idle`, `pending` or
///   `active` (the profile is connected and configured). The transport is a confirmation for
///   devices whose `UUIDs` are not (yet) resolved; it never makes a disconnected device a route,
///   and when both say something, `UUIDs` decide the type (A2DP before HFP).
///
/// The port's id is the device's object path and its name the device's `Alias` (then `Name`, then
/// `Address`), so the same headset keeps the same id across reconnections.
enum BluetoothRouteRules {
    /// Every device that is an audio route, by port id.
    static func routes(in tree: BluezObjectTree) -> [String: AudioPort] {
        var transportTypes: [ObjectPath: PortType] = [:]
        for (_, transport) in tree.objects(with: BluezNames.transportInterface) {
            guard case .objectPath(let device)? = transport["Device"],
                  case .string(let state)? = transport["State"],
                  BluezAudioProfiles.confirmingTransportStates.contains(state),
                  case .string(let uuid)? = transport["UUID"],
                  let type = BluezAudioProfiles.portType(transportUUID: uuid) else { continue }
            // A2DP wins when a device has transports of both kinds.
            if transportTypes[device] != .bluetoothA2DP { transportTypes[device] = type }
        }

        var routes: [String: AudioPort] = [:]
        for (path, device) in tree.objects(with: BluezNames.deviceInterface) {
            guard case .boolean(true)? = device["Connected"], adapterIsUp(for: path, device, in: tree) else { continue }
            let uuids: [String]
            if case .array(_, let items)? = device["UUIDs"] {
                uuids = items.compactMap { if case .string(let text) = $0 { text } else { nil } }
            } else {
                uuids = []
            }
            guard let type = BluezAudioProfiles.portType(deviceUUIDs: uuids) ?? transportTypes[path] else { continue }
            routes[path.rawValue] = AudioPort(id: path.rawValue, name: name(of: path, device), type: type)
        }
        return routes
    }

    private static func adapterIsUp(for path: ObjectPath, _ device: BluezObjectTree.Properties,
                                    in tree: BluezObjectTree) -> Bool {
        let adapterPath: ObjectPath?
        if case .objectPath(let declared)? = device["Adapter"] {
            adapterPath = declared
        } else {
            adapterPath = path.parent
        }
        guard let adapterPath, let adapter = tree.properties(of: BluezNames.adapterInterface, at: adapterPath) else {
            return false
        }
        if case .boolean(false)? = adapter["Powered"] { return false }
        return true
    }

    private static func name(of path: ObjectPath, _ device: BluezObjectTree.Properties) -> String {
        for key in ["Alias", "Name", "Address"] {
            if case .string(let text)? = device[key], !text.isEmpty { return text }
        }
        return path.elements.last.map(String.init) ?? path.rawValue
    }
}
