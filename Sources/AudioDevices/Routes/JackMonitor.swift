import CALSA
import Posix
import SessionCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Follows the jacks of one ALSA control device (G-HEADPHONES-OUT, G-HEADPHONES-IN).
///
/// A jack is a CARD-interface boolean control whose name ends in ` Jack` (`Headphone Jack`,
/// `Headset Mic Jack`, `HDMI/DP,pcm=3 Jack`). The monitor opens the control device by name
/// (non-blocking), finds the jacks, subscribes to events, then reads their state — in that order,
/// so a change between the two is not lost — and starts one thread of its own that sleeps in
/// `poll()` on the device's descriptors: no timer, no polling interval. A value event on a jack
/// re-reads it; a real change is reported to `onChange`, on that thread, in the order they happen.
/// When the device goes away (a USB card unplugged), every plugged jack is reported unplugged and
/// the thread ends.
///
/// The monitor only reads: jacks are read-only and nothing is written to the device.
public final class JackMonitor: Sendable {
    /// The control device's name, as given.
    public let control: String
    /// Every jack of the device, as ports, in the device's order.
    public let ports: [AudioPort]

    private let state: JackStates
    private let thread: PollThread

    /// Opens `control` (`hw:0`, `default`, or any `ctl.NAME` of the configuration) and starts
    /// watching it. `onChange` runs on the monitor's thread; it must not block for long.
    /// - Throws: `ALSAControlError.deviceUnavailable` when there is no such control device.
    public init(control: String, onChange: @escaping @Sendable (JackChange) -> Void) throws(ALSAControlError) {
        self.control = control
        let (opened, code, messages) = ALSAControl.open(control)
        guard let ctl = opened else {
            throw .deviceUnavailable(control: control, reason: ALSAErrorCapture.reason(code, messages))
        }
        let jacks: [Jack]
        do throws(ALSAControlError) {
            jacks = try Self.findJacks(ctl, control: control)
            let subscribed = ALSAControl.subscribe(ctl)
            guard subscribed >= 0 else {
                throw .deviceFailed(control: control, operation: "subscribing to events",
                                    reason: ALSAControl.describe(subscribed))
            }
        } catch {
            ALSAControl.close(ctl)
            throw error
        }
        var initial: [String: Bool] = [:]
        for jack in jacks { initial[jack.port.id] = ALSAControl.readBoolean(ctl, numid: jack.numid) ?? false }
        let state = JackStates(initial)
        self.state = state
        ports = jacks.map(\.port)

        let (descriptors, pollCode) = ALSAControl.pollDescriptors(ctl)
        guard pollCode >= 0 else {
            ALSAControl.close(ctl)
            throw .deviceFailed(control: control, operation: "getting its poll descriptors",
                                reason: ALSAControl.describe(pollCode))
        }
        // From here on `ctl` belongs to the thread, which also closes it (`finish`).
        // A failing `poll` ends the thread as a vanished device does: no more changes are reported.
        do throws(PosixError) {
            thread = try PollThread(name: "jack-monitor", descriptors: descriptors, work: .init(handle: { ready in
                Self.handle(&ready, ctl: ctl, jacks: jacks, state: state, onChange: onChange)
            }, finish: { _ in
                ALSAControl.close(ctl)
            }))
        } catch {
            // `finish` ran here, and closed the device.
            throw .threadFailed(control: control, reason: error.reason)
        }
    }

    deinit {
        thread.stop()
    }

    /// The ports whose jack is plugged in now.
    public var pluggedPorts: [AudioPort] {
        let plugged = state.values.withLock { $0 }
        return ports.filter { plugged[$0.id] == true }
    }

    /// Ends the thread and closes the device; no callback runs after this returns (unless called
    /// from a callback, which ends the thread once that callback returns).
    public func stop() {
        thread.stop()
    }

    // MARK: - On the monitor's thread

    private struct Jack {
        var numid: UInt32
        var name: String
        var index: UInt32
        var port: AudioPort
    }

    /// CARD-interface boolean elements named `… Jack`.
    private static func findJacks(_ ctl: OpaquePointer, control: String) throws(ALSAControlError) -> [Jack] {
        let (elements, code) = ALSAControl.elements(ctl)
        guard code >= 0 else {
            throw .deviceFailed(control: control, operation: "listing its elements", reason: ALSAControl.describe(code))
        }
        return elements.compactMap { element -> Jack? in
            guard element.interface == SND_CTL_ELEM_IFACE_CARD, JackNames.isJack(element.name),
                  ALSAControl.type(ctl, numid: element.numid) == SND_CTL_ELEM_TYPE_BOOLEAN else { return nil }
            let id = "\(control):\(element.name)" + (element.index > 0 ? ",\(element.index)" : "")
            let port = AudioPort(id: id, name: JackNames.portName(forJack: element.name),
                                 type: JackNames.portType(forJack: element.name))
            return Jack(numid: element.numid, name: element.name, index: element.index, port: port)
        }
    }

    /// One wake-up: read every pending event, re-read the jacks they name, report real changes.
    private static func handle(_ ready: inout [pollfd], ctl: OpaquePointer, jacks: [Jack],
                               state: JackStates,
                               onChange: @Sendable (JackChange) -> Void) -> Bool {
        let revents = Int32(ALSAControl.revents(ctl, &ready))
        if revents & Int32(POLLERR | POLLHUP | POLLNVAL) != 0 {
            report(jacks.map { ($0, false) }, state: state, onChange: onChange)
            return false
        }
        guard revents & Int32(POLLIN) != 0 else { return true }
        var touched: [Int] = []
        for event in ALSAControl.readEvents(ctl) {
            guard event.mask & UInt32(SND_CTL_EVENT_MASK_VALUE) != 0,
                  let index = jacks.firstIndex(where: { jack in
                      event.numid != 0 ? jack.numid == event.numid
                                       : jack.name == event.name && jack.index == event.index
                  }), !touched.contains(index) else { continue }
            touched.append(index)
        }
        let readings = touched.sorted().compactMap { index -> (Jack, Bool)? in
            guard let plugged = ALSAControl.readBoolean(ctl, numid: jacks[index].numid) else { return nil }
            return (jacks[index], plugged)
        }
        report(readings, state: state, onChange: onChange)
        return true
    }

    /// Stores the readings and calls `onChange` for those that differ from what was known.
    private static func report(_ readings: [(Jack, Bool)], state: JackStates,
                               onChange: @Sendable (JackChange) -> Void) {
        let changes = state.values.withLock { known -> [JackChange] in
            readings.compactMap { jack, plugged in
                guard known[jack.port.id] != plugged else { return nil }
                known[jack.port.id] = plugged
                return JackChange(port: jack.port, plugged: plugged)
            }
        }
        for change in changes { onChange(change) }
    }
}

/// The last known state of each jack (by port id), shared by the monitor and its thread.
private final class JackStates: Sendable {
    let values: Mutex<[String: Bool]>
    init(_ initial: [String: Bool]) { values = Mutex(initial) }
}
