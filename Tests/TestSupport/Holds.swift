/// Watches `condition` through `window` and returns false at the first sample where it fails
/// (true: it held throughout) — the one shape of a negative check against a real program, where
/// no event says that something did *not* happen: a second `Pause`, a resume after a plug-in, a
/// duck applied twice.
///
/// Call it once the event that could cause the wrong change has been seen (the unplug in the
/// status, the call's end in the log): the window is then how long the program under test gets
/// to act wrongly, and a wrong change fails the test the moment it shows — including one undone
/// again within the window, which a sleep followed by one look would miss. Sampled every 20 ms.
public func holds(for window: Duration, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + window
    repeat {
        guard try await condition() else { return false }
        try? await Task.sleep(for: .milliseconds(20))
    } while ContinuousClock.now < deadline
    return try await condition()
}
