import CDBus

extension ConnectionCore {
    /// Sends the error reply to `call` (borrowed). An error that cannot travel as it is (a
    /// malformed name, a NUL in the message) goes as `Failed` naming it, so the caller still gets
    /// an answer rather than a timeout. Shared by `Answer.fail` and the `Properties.Get` fast path.
    func sendError(_ error: DBusError, answering call: OpaquePointer) {
        do {
            send(consuming: try ReceivedMessage.makeErrorReply(error, to: call))
        } catch {
            let text = "\(error.name): \(error.message)".filter { $0 != "\u{0}" }
            if let fallback = try? ReceivedMessage.makeErrorReply(.failed("unsendable error \(text)"), to: call) {
                send(consuming: fallback)
            }
        }
    }
}
