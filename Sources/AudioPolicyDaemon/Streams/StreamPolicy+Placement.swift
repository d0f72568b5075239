import SystemContext

extension StreamPlacement {
    /// The placement `streams` gives while it decides device loss per stream: the sessions it
    /// sees playing on a sink are spared by the engine's route, and a jack of `jackControl`
    /// going out pauses those whose streams play on a sink of that card (G-HEADPHONES-OUT on a
    /// desktop: the laptop's headphones are the active port of its one analog sink).
    static func of(_ streams: StreamPolicy, jackControl: String?) -> StreamPlacement {
        let jacks = JackWatch.forControl(jackControl)
        return StreamPlacement(placed: { streams.placedSessions() }, portsGone: { ports in
            streams.portsGone(ports) { port, inventory in jacks.sinks(behind: port, control: jackControl, in: inventory) }
        })
    }
}
