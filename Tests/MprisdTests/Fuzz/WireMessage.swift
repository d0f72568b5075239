import DBus

/// D-Bus messages encoded byte by byte (little endian, spec § "Message Format"), independent of
/// libdbus: the fuzzer needs the exact bytes of a valid call to mutate them, and header strings it
/// may make invalid on purpose (libdbus would refuse to build such a message at all).
struct WireMessage {
    var serial: UInt32
    var destination: String?
    /// Any text: not checked, so an invalid object path can be sent.
    var path: String
    var interface: String?
    var member: String
    var body: [DBusValue] = []
    var flags: UInt8 = 0

    /// The complete message.
    func encoded() -> [UInt8] {
        var bodyBytes = WireEncoder()
        for value in body { bodyBytes.encode(value) }
        var header = WireEncoder()
        header.bytes = [UInt8(ascii: "l"), 1, flags, 1]
        header.u32(UInt32(bodyBytes.bytes.count))
        header.u32(serial)
        header.array(alignment: 8) { fields in
            func field(_ code: UInt8, _ type: String, _ text: String) {
                fields.pad(8)
                fields.bytes.append(code)
                fields.signature(type)
                if type == "g" { fields.signature(text) } else { fields.string(text) }
            }
            field(1, "o", path)
            if let interface { field(2, "s", interface) }
            field(3, "s", member)
            if let destination { field(6, "s", destination) }
            let signature = body.map(\.type.code).joined()
            if !signature.isEmpty { field(8, "g", signature) }
        }
        header.pad(8)
        return header.bytes + bodyBytes.bytes
    }
}

/// Appends D-Bus wire values with the spec's alignment rules (offsets count from the start of the
/// message or body, which both start 8-aligned).
struct WireEncoder {
    var bytes: [UInt8] = []

    mutating func pad(_ alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    mutating func u32(_ value: UInt32) {
        pad(4)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ value: UInt64) {
        pad(8)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u16(_ value: UInt16) {
        pad(2)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
        let utf8 = Array(text.utf8)
        u32(UInt32(utf8.count))
        bytes += utf8
        bytes.append(0)
    }

    mutating func signature(_ text: String) {
        let utf8 = Array(text.utf8)
        bytes.append(UInt8(truncatingIfNeeded: utf8.count))
        bytes += utf8
        bytes.append(0)
    }

    /// An array: length, padding to the elements' alignment, the elements; the length counts the
    /// elements only.
    mutating func array(alignment: Int, _ elements: (inout WireEncoder) -> Void) {
        u32(0)
        let lengthAt = bytes.count - 4
        pad(alignment)
        let start = bytes.count
        elements(&self)
        let length = UInt32(bytes.count - start).littleEndian
        withUnsafeBytes(of: length) { raw in
            for (index, byte) in raw.enumerated() { bytes[lengthAt + index] = byte }
        }
    }

    mutating func encode(_ value: DBusValue) {
        switch value {
        case .byte(let v): bytes.append(v)
        case .boolean(let v): u32(v ? 1 : 0)
        case .int16(let v): u16(UInt16(bitPattern: v))
        case .uint16(let v): u16(v)
        case .int32(let v): u32(UInt32(bitPattern: v))
        case .uint32(let v): u32(v)
        case .int64(let v): u64(UInt64(bitPattern: v))
        case .uint64(let v): u64(v)
        case .double(let v): u64(v.bitPattern)
        case .string(let v): string(v)
        case .objectPath(let v): string(v.rawValue)
        case .signature(let v): signature(v.code)
        case .unixFD: u32(0)
        case .array(let element, let items):
            array(alignment: Self.alignment(of: element)) { encoder in
                for item in items { encoder.encode(item) }
            }
        case .dictionary(_, _, let entries):
            array(alignment: 8) { encoder in
                for entry in entries {
                    encoder.pad(8)
                    encoder.encode(entry.key)
                    encoder.encode(entry.value)
                }
            }
        case .struct(let fields):
            pad(8)
            for field in fields { encode(field) }
        case .variant(let inner):
            signature(inner.type.code)
            encode(inner)
        }
    }

    static func alignment(of type: DBusType) -> Int {
        switch type {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .boolean, .int32, .uint32, .string, .objectPath, .unixFD, .array: 4
        case .int64, .uint64, .double, .dictionary, .struct: 8
        }
    }
}

/// The parts of a received message the fuzzer looks at (header fields only).
struct ReceivedWireMessage {
    /// 1 call, 2 return, 3 error, 4 signal.
    var type: UInt8
    var serial: UInt32
    var replySerial: UInt32?
    var sender: String?
    var errorName: String?

    /// Parses one message from the start of `bytes`; returns it and its length, or nil when more
    /// bytes are needed.
    static func parse(_ bytes: ArraySlice<UInt8>) -> (ReceivedWireMessage, Int)? {
        guard bytes.count >= 16 else { return nil }
        let base = bytes.startIndex
        let little = bytes[base] == UInt8(ascii: "l")
        func u32(_ offset: Int) -> UInt32 {
            let b = (0..<4).map { UInt32(bytes[base + offset + $0]) }
            return little ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[3] | b[2] << 8 | b[1] << 16 | b[0] << 24
        }
        let bodyLength = Int(u32(4))
        let fieldsLength = Int(u32(12))
        let headerEnd = (16 + fieldsLength + 7) & ~7
        let total = headerEnd + bodyLength
        guard bytes.count >= total else { return nil }
        var message = ReceivedWireMessage(type: bytes[base + 1], serial: u32(8))
        var offset = 16
        while offset < 16 + fieldsLength {
            offset = (offset + 7) & ~7
            let code = bytes[base + offset]
            let signatureLength = Int(bytes[base + offset + 1])
            let type = bytes[base + offset + 2]
            offset += 2 + signatureLength + 1
            switch type {
            case UInt8(ascii: "u"):
                offset = (offset + 3) & ~3
                if code == 5 { message.replySerial = u32(offset) }
                offset += 4
            case UInt8(ascii: "s"), UInt8(ascii: "o"):
                offset = (offset + 3) & ~3
                let length = Int(u32(offset))
                let text = String(decoding: bytes[(base + offset + 4)..<(base + offset + 4 + length)], as: UTF8.self)
                if code == 7 { message.sender = text }
                if code == 4 { message.errorName = text }
                offset += 4 + length + 1
            case UInt8(ascii: "g"):
                offset += Int(bytes[base + offset]) + 2
            default:
                return (message, total)  // an unexpected field type: stop reading fields
            }
        }
        return (message, total)
    }
}
