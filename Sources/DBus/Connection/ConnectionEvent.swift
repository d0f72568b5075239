/// Something that happened to the connection itself.
public enum ConnectionEvent: Sendable, Equatable {
    /// The bus gave this connection ownership of a name (`NameAcquired`).
    case nameAcquired(String)
    /// This connection lost a name it owned (`NameLost`): replaced, released, or the bus went away.
    case nameLost(String)
    /// The connection to the bus is gone. Calls now fail with `Disconnected`; nothing exits the process.
    case disconnected
}
