import Posix
import SystemContext

extension Commands {
    static let route = Command(
        name: "route",
        summary: "list outputs, or pick the one to use",
        help: """
            Usage: mprisd route [list] [--control CTL]
                   mprisd route use ID|auto [--control CTL]

            Lists the outputs that exist (the speaker, headphone and line jacks, connected
            Bluetooth audio devices, ALSA devices named in the configuration), or makes ID the
            user's route pick: running players move there at once and keep playing (a pick never
            pauses). 'auto' goes back to automatic routing (the last connected device wins).
            The pick persists in $XDG_STATE_HOME/mprisd/route; a picked device that is not
            there now is used as soon as it appears.

            Configured outputs ($XDG_CONFIG_HOME/mprisd/config):
              output.usb-dac = hw:CARD=DAC,DEV=0
              output.usb-dac.name = USB DAC
              output.usb-dac.type = usbAudio      (lineOut, usbAudio, hdmi, headphones, speaker)

            Options:
              --control CTL  ALSA control device whose jacks are listed (default: the card of
                             the default output)
              -h, --help     show this help
            """,
        run: { arguments in
            let control = try arguments.popValue("--control", rule: ValueRules.device)
            let action = try arguments.popOperand() ?? "list"
            switch action {
            case "list":
                try arguments.expectEnd()
                return listRoutes(control: control)
            case "use":
                guard let id = try arguments.popOperand() else { throw UsageError("route use needs an output ID (or auto)") }
                try arguments.expectEnd()
                return useRoute(id, control: control)
            default:
                throw UsageError("route takes 'list' or 'use ID', not \(Excerpt.quoted(action))")
            }
        })

    private static func listRoutes(control: String?) -> Int32 {
        let inventory = OutputInventory.gather(control: control)
        for note in inventory.notes { Output.error("mprisd route: \(note)") }
        let pick = RoutePick.read()
        var rows = [["", "ID", "TYPE", "NAME", "STATE"]]
        for entry in inventory.entries {
            let state = entry.available ? (entry.detail.map { "ready (\($0))" } ?? "ready") : "unplugged"
            rows.append([entry.port.id == pick ? "*" : "", entry.port.id, entry.port.type.rawValue,
                         entry.port.name, state])
        }
        Output.out(TextTable(plain: rows).lines(colour: false).joined(separator: "\n"))
        if let pick {
            let known = inventory.contains(pick) ? "" : " (not present now)"
            Output.out("route: \(pick), picked\(known) — 'mprisd route use auto' to undo")
        } else {
            Output.out("route: automatic (the last connected device wins)")
        }
        return ExitStatus.success
    }

    private static func useRoute(_ id: String, control: String?) -> Int32 {
        let pick: String? = id == RoutePick.automatic ? nil : id
        if let pick {
            let inventory = OutputInventory.gather(control: control)
            guard inventory.contains(pick) else {
                let known = inventory.entries.map(\.port.id).joined(separator: ", ")
                Output.error("mprisd route: no output \(Excerpt.quoted(pick)) (outputs: \(known), or auto)")
                return ExitStatus.failure
            }
        }
        do {
            try RoutePick.write(pick)
        } catch {
            Output.error("mprisd route: \(error)")
            return ExitStatus.failure
        }
        Output.out(pick.map { "route: \($0) (picked)" } ?? "route: automatic")
        return ExitStatus.success
    }
}
