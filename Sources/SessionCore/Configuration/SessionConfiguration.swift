/// Category, mode and options of a session (G-CAT-SEMANTIC, G-CAT-OPTIONS).
///
/// A value is only a request: `validated()` checks the options against the category and replaces an
/// invalid mode by `.default`. The engine only ever stores validated configurations.
public struct SessionConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// The category (G-CAT-SEMANTIC).
    public var category: SessionCategory
    /// The mode; one not valid for the category behaves as `.default`.
    public var mode: SessionMode
    /// The options; each must fit the category (G-CAT-OPTIONS).
    public var options: SessionOptions

    /// A configuration; the default is `soloAmbient`, default mode, no options.
    public init(_ category: SessionCategory = .soloAmbient, mode: SessionMode = .default,
                options: SessionOptions = []) {
        self.category = category
        self.mode = mode
        self.options = options
    }

    public var description: String {
        options.isEmpty ? "\(category)/\(mode)" : "\(category)/\(mode)\(options)"
    }
}
