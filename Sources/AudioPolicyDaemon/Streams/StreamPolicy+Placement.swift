import SessionCore
import SystemContext

extension StreamPlacement {
    /// The placement `streams` gives while it decides device loss per stream: the sessions it
    /// sees playing on a sink are spared by the engine's route, and a jack of `jackControl`
    /// going out pauses those whose streams play on a sink of that card (G-HEADPHONES-OUT on a
    /// desktop: the laptop's headphones are the active port of its one analog sink).
    /// The sessions no stream places keep the jack of the card their route's sink is on
    /// (`StreamPolicy.portsGone`).
    static func of(_ streams: StreamPolicy, jackControl: String?, system: AudioSystem,
                   sessions: SessionDirectory) -> StreamPlacement {
        let jacks = JackWatch.forControl(jackControl)
        return StreamPlacement(placed: { streams.placedSessions() }, portsGone: { ports, unplaced in
            streams.portsGone(ports, unplaced: unplaced, of: system, sessions: sessions) { port, inventory in
                jacks.sinks(behind: port, control: jackControl, in: inventory)
            }
        })
    }
}
