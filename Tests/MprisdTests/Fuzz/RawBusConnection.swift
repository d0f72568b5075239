import Foundation
import Glibc
import TestSupport

/// A bus connection made by hand: a unix socket, the EXTERNAL authentication and `Hello`, then
/// bytes as the test writes them. Nothing checks what is sent, so mutated messages reach the bus
/// daemon exactly as made (it drops malformed ones and disconnects their sender).
final class RawBusConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var uniqueName = ""
    private var serial: UInt32 = 1

    /// Connects to a `unix:path=` or `unix:abstract=` address and says `Hello`.
    init(address: String) throws {
        let fields = Dictionary(address.split(separator: ";").first.map {
            $0.dropFirst("unix:".count).split(separator: ",").compactMap { pair -> (String, String)? in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }
        } ?? [], uniquingKeysWith: { first, _ in first })
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes: [UInt8]
        if let path = fields["path"] {
            pathBytes = Array(path.utf8)
        } else if let abstract = fields["abstract"] {
            pathBytes = [0] + Array(abstract.utf8)
        } else {
            Glibc.close(fd)
            throw TestSupportError("unsupported address \(address)")
        }
        let length = pathBytes.count
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let size = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + length + (pathBytes.first == 0 ? 0 : 1))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw TestSupportError("connect: errno \(errno)")
        }
        do {
            try authenticate()
            let hello = WireMessage(serial: nextSerial(), destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus", member: "Hello")
            guard send(hello.encoded()) else { throw TestSupportError("Hello could not be sent") }
            let reply = try awaitReply(to: hello.serial, timeout: .seconds(5))
            guard reply.type == 2 else { throw TestSupportError("Hello failed: \(reply.errorName ?? "?")") }
            uniqueName = try readHelloName()
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    deinit {
        Glibc.close(fd)
    }

    func nextSerial() -> UInt32 {
        serial += 1
        return serial
    }

    /// Writes all of `bytes`; false when the bus has closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let wrote = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { return false }
            offset += wrote
        }
        return true
    }

    enum ReadError: Error { case closed, timedOut }

    /// The next whole message, skipping nothing; `closed` when the bus hung up.
    func receive(until deadline: ContinuousClock.Instant) throws(ReadError) -> ReceivedWireMessage {
        while true {
            if let (message, length) = ReceivedWireMessage.parse(buffer[...]) {
                lastBody = Array(buffer[(length - Int(bodyLengthOfFirst()))..<length])
                buffer.removeFirst(length)
                return message
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw .timedOut }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got < 0, errno == EINTR || errno == EAGAIN { continue }
            guard got > 0 else { throw .closed }
            buffer += chunk[0..<got]
        }
    }

    /// Reads until the reply (or error) to `serial` arrives; other messages are dropped.
    func awaitReply(to serial: UInt32, timeout: Duration) throws -> ReceivedWireMessage {
        let deadline = ContinuousClock.now + timeout
        while true {
            let message = try receive(until: deadline)
            if message.replySerial == serial, message.type == 2 || message.type == 3 { return message }
        }
    }

    /// The body of the last message `receive` returned.
    private(set) var lastBody: [UInt8] = []

    private func bodyLengthOfFirst() -> UInt32 {
        UInt32(buffer[4]) | UInt32(buffer[5]) << 8 | UInt32(buffer[6]) << 16 | UInt32(buffer[7]) << 24
    }

    private func readHelloName() throws -> String {
        guard lastBody.count >= 5 else { throw TestSupportError("Hello reply has no name") }
        let length = Int(UInt32(lastBody[0]) | UInt32(lastBody[1]) << 8 | UInt32(lastBody[2]) << 16 | UInt32(lastBody[3]) << 24)
        return String(decoding: lastBody[4..<min(4 + length, lastBody.count)], as: UTF8.self)
    }

    /// `\0`, `AUTH EXTERNAL <uid in hex>`, `OK <guid>`, `BEGIN`.
    private func authenticate() throws {
        let uid = Array(String(getuid()).utf8).map { String(format: "%02x", $0) }.joined()
        guard send([0] + Array("AUTH EXTERNAL \(uid)\r\n".utf8)) else { throw TestSupportError("auth: send failed") }
        var line: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while !line.suffix(2).elementsEqual([13, 10]) {
            guard ContinuousClock.now < deadline else { throw TestSupportError("auth: no answer") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, 1000)
            var byte: UInt8 = 0
            let got = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
            if got == 1 { line.append(byte) } else if got == 0 { throw TestSupportError("auth: closed") }
        }
        guard line.starts(with: Array("OK ".utf8)) else {
            throw TestSupportError("auth refused: \(String(decoding: line, as: UTF8.self))")
        }
        guard send(Array("BEGIN\r\n".utf8)) else { throw TestSupportError("auth: BEGIN failed") }
    }
}
