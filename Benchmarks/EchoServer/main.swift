// bench-echo-server: the Swift binding's side of the echo benchmark (see Benchmarks/echo.sh).
//
//   bench-echo-server --name BUSNAME [--path /org/mprisd/Bench] [--interface org.mprisd.Bench]
//
// Answers Ping() and Echo(s)→s on the session bus with immediate handlers, like the C reference
// server answers them with plain libdbus. Prints "ready" once the name is owned.
import DBus
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String, status: Int32) -> Never {
    let line = "bench-echo-server: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(status)
}

var name: String?
var pathText = "/org/mprisd/Bench"
var interfaceName = "org.mprisd.Bench"
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--name": name = arguments.popFirst()
    case "--path": pathText = arguments.popFirst() ?? pathText
    case "--interface": interfaceName = arguments.popFirst() ?? interfaceName
    default:
        fail("unknown argument \(flag)", status: 64)
    }
}
guard let name else {
    fail("usage: bench-echo-server --name BUSNAME [--path PATH] [--interface IFACE]", status: 64)
}

do {
    let connection = try Connection(bus: .session)
    let path = try ObjectPath(pathText)
    _ = try connection.export(path, interfaces: [
        Interface(interfaceName, methods: [
            .immediate("Ping") { _ in [] },
            .immediate("Echo", inputs: [Argument("text", .string)], outputs: [Argument("text", .string)]) { call in
                call.body
            },
        ]),
    ])
    guard try await connection.requestName(name, flags: .doNotQueue) == .primaryOwner else {
        fail("\(name) is already owned", status: 1)
    }
    _ = write(1, "ready\n", 6)
    for await event in connection.events() where event == .disconnected {
        break
    }
} catch {
    fail("\(error)", status: 1)
}
