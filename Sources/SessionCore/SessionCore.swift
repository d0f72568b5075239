// Placeholder: replaced by the session model (issue 3).
public enum SessionCoreInfo { public static let name = "SessionCore" }
