/// The control device that belongs to an output PCM (`--control CTL`, default "the card
/// behind the output PCM").
public enum ControlName {
    /// `hw:N` for the card a PCM name points at, or `nil` when the name does not say.
    ///
    /// Understood: `hw:N`, `hw:N,D`, `plughw:N,…`, `dmix:N`, `dsnoop:N`, `sysdefault:N`, `front:N`,
    /// `surround51:N` and the like (any `NAME:N…` whose first argument is a card number or id), the
    /// keyword forms `hw:CARD=X,DEV=Y` and `default`/`sysdefault` (→ `default`, alsa-lib's default
    /// control, the card that `defaults.ctl.card` names).
    ///
    /// Limits: a PCM defined in an `asoundrc` (`pcm.mine { … }`), `pulse`, `pipewire`, `null`,
    /// `file`-style plugins and anything else without a card argument give `nil` — their card, if
    /// any, is only known by parsing the configuration tree, so the caller asks the user for
    /// `--control`. A card *id* (`hw:PCH`) is kept as `hw:PCH`, which alsa-lib accepts.
    public static func forPCM(_ pcm: String) -> String? {
        if pcm == "default" || pcm == "sysdefault" { return "default" }
        guard let colon = pcm.firstIndex(of: ":") else { return nil }
        let arguments = pcm[pcm.index(after: colon)...]
        let first = arguments.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init) ?? ""
        var card = first
        if let equals = first.firstIndex(of: "=") {
            guard first[..<equals].uppercased() == "CARD" else { return nil }
            card = String(first[first.index(after: equals)...])
        }
        card = card.trimmingQuotes()
        guard !card.isEmpty, card.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            return nil
        }
        return "hw:\(card)"
    }
}

private extension String {
    func trimmingQuotes() -> String {
        guard count >= 2, first == "\"", last == "\"" else { return self }
        return String(dropFirst().dropLast())
    }
}
