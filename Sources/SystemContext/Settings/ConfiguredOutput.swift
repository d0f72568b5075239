import SessionCore

/// An ALSA PCM the user named in the configuration as an output to pick (G-ROUTE-PICK):
///
///     output.usb-dac = hw:CARD=DAC,DEV=0
///     output.usb-dac.name = USB DAC          # optional, shown by `mprisd route list`
///     output.usb-dac.type = usbAudio         # optional: lineOut (default), usbAudio, hdmi, headphones
///
/// Such an output is *pick-only*: automatic routing never moves audio there just because it exists.
public struct ConfiguredOutput: Sendable, Hashable {
    /// The id the user picks it by (`mprisd route use ID`).
    public var id: String
    /// The ALSA PCM that plays it.
    public var pcm: String
    public var name: String
    public var type: PortType

    public init(id: String, pcm: String, name: String? = nil, type: PortType = .lineOut) {
        self.id = id
        self.pcm = pcm
        self.name = name ?? id
        self.type = type
    }

    /// The port the policy engine sees.
    public var port: AudioPort { AudioPort(id: id, name: name, type: type, pickOnly: true) }

    /// The port types an output can be declared as.
    static let declarableTypes: [PortType] = [.lineOut, .usbAudio, .hdmi, .headphones, .speaker]

    /// The outputs of `config`, in file order, and the problems of their lines (at most
    /// `ConfigFile.problemLimit` of them, then how many more).
    public static func outputs(in config: ConfigFile) -> (outputs: [ConfiguredOutput], problems: [String]) {
        var outputs: [ConfiguredOutput] = []
        var declared: Set<String> = []
        var problems: [String] = []
        var names: [String: String] = [:]
        var types: [String: (ConfigFile.Entry, String)] = [:]
        for entry in config.entries where entry.key.hasPrefix("output.") {
            let rest = entry.key.dropFirst("output.".count)
            if rest.hasSuffix(".name") {
                names[String(rest.dropLast(".name".count))] = entry.value
            } else if rest.hasSuffix(".type") {
                types[String(rest.dropLast(".type".count))] = (entry, entry.value)
            } else if rest.isEmpty || rest.contains(".") {
                problems.append(config.problem(entry, "\(Excerpt.quoted(entry.key)): expected output.ID, output.ID.name or output.ID.type"))
            } else if entry.value.isEmpty || entry.value.contains(where: { $0 == " " || $0 == "\t" }) {
                problems.append(config.problem(entry, "output.\(Excerpt.shown(rest)) needs one ALSA device name, got \(Excerpt.quoted(entry.value))"))
            } else if !declared.insert(String(rest)).inserted {
                problems.append(config.problem(entry, "output \(Excerpt.shown(rest)) is declared twice; the first one counts"))
            } else {
                outputs.append(ConfiguredOutput(id: String(rest), pcm: entry.value))
            }
        }
        for index in outputs.indices {
            let id = outputs[index].id
            if let name = names.removeValue(forKey: id), !name.isEmpty { outputs[index].name = name }
            if let (entry, value) = types.removeValue(forKey: id) {
                if let type = declarableTypes.first(where: { $0.rawValue == value }) {
                    outputs[index].type = type
                } else {
                    let allowed = declarableTypes.map(\.rawValue).joined(separator: ", ")
                    problems.append(config.problem(entry, "output type \(Excerpt.quoted(value)) is not one of \(allowed)"))
                }
            }
        }
        for (entry, _) in types.values.sorted(by: { $0.0.line < $1.0.line }) {
            problems.append(config.problem(entry, "\(Excerpt.quoted(entry.key)) names no declared output"))
        }
        return (outputs, config.brief(problems))
    }
}
