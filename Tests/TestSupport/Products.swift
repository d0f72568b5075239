import Foundation

/// Where `swift build` put the package's executables: next to the test bundle.
public enum Products {
    public static var directory: URL {
        let bundle = Bundle.main.bundleURL
        return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    }

    /// The path of the executable product `name` (for example `mprisd`).
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
