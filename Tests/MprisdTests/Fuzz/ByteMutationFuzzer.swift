import DBus
import Foundation
import TestSupport

/// Valid calls to the target, encoded by hand and then damaged byte by byte (seeded), sent over a
/// raw connection. The bus daemon validates every message and disconnects a sender of a malformed
/// one; what is still well-formed after the damage (a changed number, letter, flag, name) reaches
/// the target, which must survive it.
struct ByteMutationFuzzer {
    struct Counts: CustomStringConvertible {
        var sent = 0
        /// The bus hung up on the sender: the message was malformed and never delivered.
        var droppedByBus = 0
        /// A reply from the target itself: the damaged message reached it.
        var answeredByTarget = 0
        var reconnects = 0
        var description: String {
            "\(sent) mutated messages (\(answeredByTarget) reached the target, \(droppedByBus) dropped by the bus)"
        }
    }

    let address: String
    let target: String
    var rng: SeededRNG
    private(set) var counts = Counts()

    init(address: String, target: String, seed: UInt64) {
        self.address = address
        self.target = target
        rng = SeededRNG(seed: seed)
    }

    /// Mutates each template `rounds` times and sends the results.
    mutating func run(templates: [Message], rounds: Int) throws {
        var connection = try RawBusConnection(address: address)
        let small = templates.filter { message in message.body.allSatisfy { "\($0)".utf8.count < 2048 } }
        for round in 0..<rounds {
            let template = small[round % small.count]
            let serial = connection.nextSerial()
            var bytes = WireMessage(serial: serial, destination: target, path: template.path?.rawValue ?? "/",
                                    interface: template.interface, member: template.member ?? "X",
                                    body: template.body).encoded()
            mutate(&bytes)
            counts.sent += 1
            // A sync call after it: its answer means the bus has dealt with the damaged message.
            let sync = WireMessage(serial: connection.nextSerial(), destination: "org.freedesktop.DBus",
                                   path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetId")
            var healthy = connection.send(bytes) && connection.send(sync.encoded())
            if healthy {
                healthy = drain(connection, mutatedSerial: serial, syncSerial: sync.serial)
            } else {
                counts.droppedByBus += 1
            }
            if !healthy {
                connection = try RawBusConnection(address: address)
                counts.reconnects += 1
            }
        }
    }

    /// Reads until the sync reply; notes a reply from the target. False when the connection is lost.
    private mutating func drain(_ connection: RawBusConnection, mutatedSerial: UInt32, syncSerial: UInt32) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(500)
        var targetAnswered = false
        while true {
            do {
                let message = try connection.receive(until: deadline)
                if message.replySerial == mutatedSerial, message.sender != "org.freedesktop.DBus" { targetAnswered = true }
                if message.replySerial == syncSerial {
                    // The target may answer after the bus: give it a moment without waiting long.
                    if !targetAnswered, let late = try? connection.receive(until: ContinuousClock.now + .milliseconds(2)),
                       late.replySerial == mutatedSerial, late.sender != "org.freedesktop.DBus" {
                        targetAnswered = true
                    }
                    if targetAnswered { counts.answeredByTarget += 1 }
                    return true
                }
            } catch RawBusConnection.ReadError.closed {
                counts.droppedByBus += 1
                return false
            } catch {
                return false  // timed out: a length field now promises bytes that never come
            }
        }
    }

    /// One to four byte changes. Nine times in ten the endianness and the two length fields of the
    /// fixed header are spared (damaging them makes the bus wait for bytes that never come).
    private mutating func mutate(_ bytes: inout [UInt8]) {
        let spareLengths = rng.next() % 10 != 0
        let changes = 1 + Int(rng.next() % 4)
        for _ in 0..<changes {
            var index = Int(rng.next() % UInt64(bytes.count))
            if spareLengths {
                while index == 0 || (4..<8).contains(index) || (12..<16).contains(index) {
                    index = Int(rng.next() % UInt64(bytes.count))
                }
            }
            switch rng.next() % 5 {
            case 0: bytes[index] ^= UInt8(1 << (rng.next() % 8))
            case 1: bytes[index] = UInt8(truncatingIfNeeded: rng.next())
            case 2: bytes[index] = 0
            case 3: bytes[index] = 0xFF
            default: bytes[index] = [UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "a"), 0x80, 0x7F][Int(rng.next() % 5)]
            }
        }
    }
}
