import CSndfile

/// What the installed libsndfile can decode, asked at run time (`SFC_GET_FORMAT_MAJOR*`,
/// `SFC_GET_FORMAT_SUBTYPE*`): Debian's libsndfile has FLAC, Ogg Vorbis/Opus and MP3, but a build
/// without them is common, and the player says so instead of a bare "format not recognised".
public struct SupportedFormats: Sendable, Hashable {
    /// One container libsndfile lists, e.g. `FLAC (Free Lossless Audio Codec)` with extension `flac`.
    public struct Container: Sendable, Hashable {
        public var name: String
        public var fileExtension: String
        let code: Int32
    }

    /// The containers (major formats), in libsndfile's order.
    public let containers: [Container]
    /// The encodings (subtypes), e.g. `Signed 16 bit PCM`, `Vorbis`, `Opus`.
    public let encodings: [String]
    private let encodingCodes: Set<Int32>

    /// The installed library's answer, asked once (nothing at all without libsndfile: every file
    /// is then refused with the reason when opened).
    public static let installed = SupportedFormats()

    init() {
        var containers: [Container] = []
        guard Sndfile.unavailableReason == nil else {
            self.containers = []
            encodings = []
            encodingCodes = []
            return
        }
        for index in 0..<Sndfile.formatCount(subtypes: false) {
            if let entry = Sndfile.formatEntry(index, subtypes: false) {
                containers.append(Container(name: entry.name, fileExtension: entry.fileExtension.lowercased(),
                                            code: entry.format))
            }
        }
        var encodings: [String] = []
        var codes = Set<Int32>()
        for index in 0..<Sndfile.formatCount(subtypes: true) {
            if let entry = Sndfile.formatEntry(index, subtypes: true) {
                encodings.append(entry.name)
                codes.insert(entry.format)
            }
        }
        self.containers = containers
        self.encodings = encodings
        encodingCodes = codes
    }

    public var decodesFLAC: Bool { hasContainer(SF_FORMAT_FLAC) }
    public var decodesVorbis: Bool { hasContainer(SF_FORMAT_OGG) && encodingCodes.contains(Int32(SF_FORMAT_VORBIS)) }
    public var decodesOpus: Bool { hasContainer(SF_FORMAT_OGG) && encodingCodes.contains(Int32(SF_FORMAT_OPUS)) }
    public var decodesMP3: Bool { hasContainer(SF_FORMAT_MPEG) }

    /// File extensions (lowercase, no dot) worth trying: every container's own extension plus the
    /// usual aliases (`aif`, `ogg`, `opus`, `snd`, `mp3`…), without `raw` (headerless data cannot be probed).
    public var fileExtensions: Set<String> {
        var result = Set(containers.map(\.fileExtension))
        result.remove("raw")
        result.remove("")
        if result.contains("aiff") { result.formUnion(["aif", "aifc"]) }
        if result.contains("au") { result.insert("snd") }
        if decodesVorbis || decodesOpus { result.formUnion(["ogg", "oga"]) }
        if decodesOpus { result.insert("opus") }
        if decodesMP3 { result.formUnion(["mp3", "mp2"]) }  // libsndfile lists MPEG as `m1a`
        return result
    }

    /// The extensions a music folder commonly holds, listed by the scan even when this libsndfile
    /// cannot decode them, so the player reports "MP3 is not supported" instead of silently finding
    /// nothing.
    public static let commonExtensions: Set<String> = ["wav", "flac", "ogg", "oga", "opus", "mp3", "aif", "aiff"]

    /// The name of the format `path`'s extension promises when this libsndfile lacks it
    /// (`"MP3"` for `song.mp3` without MPEG support), else `nil`.
    public func missingFormat(forPath path: String) -> String? {
        switch SupportedFormats.fileExtension(of: path) {
        case "mp3": return decodesMP3 ? nil : "MP3"
        case "flac": return decodesFLAC ? nil : "FLAC"
        case "ogg", "oga": return decodesVorbis ? nil : "Ogg Vorbis"
        case "opus": return decodesOpus ? nil : "Opus"
        case "m4a", "aac", "mp4": return "AAC"
        case "wma": return "WMA"
        default: return nil
        }
    }

    /// The lowercase extension of the last path component, without the dot (`""` when none).
    static func fileExtension(of path: String) -> String {
        let name = path.split(separator: "/").last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    private func hasContainer(_ major: Int) -> Bool {
        containers.contains { $0.code == Int32(major) }
    }
}
