/// Whether the user allowed an app to record (G-APP-MEDIA, G-APP-VOIP, G-APP-METER: "ask for record
/// permission yourself"). Input categories activate only with `.granted`.
public enum RecordPermission: String, Sendable, Hashable, CaseIterable {
    case undetermined
    case denied
    case granted
}
