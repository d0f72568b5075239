/// Exit statuses (sysexits.h), one list for the command line and the daemon it starts.
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    public static let unavailable: Int32 = 69
}
