/// The program's version, shown by the daemon and its `Version` property.
enum Version {
    static let string = "0.6.0"
}
