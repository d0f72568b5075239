// bench-echo-server: the Swift binding's side of the echo benchmark (see Benchmarks/echo.sh).
//
//   bench-echo-server --name BUSNAME [--path /org/mprisd/Bench] [--interface org.mprisd.Bench]
//
// Answers Ping() and Echo(s)→s on the session bus with immediate handlers, like the C reference
// server answers them with plain libdbus. Prints "ready" once the name is owned. It uses no Swift
// concurrency, so the idle process wakes up zero times (libdispatch's thread pool, once started,
// ticks once a second); the main thread sleeps in sigwait until SIGINT or SIGTERM.
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
    default: fail("unknown argument \(flag)", status: 64)
    }
}
guard let name else {
    fail("usage: bench-echo-server --name BUSNAME [--path PATH] [--interface IFACE]", status: 64)
}

// Signals are taken synchronously by the main thread; block them before any thread starts.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

let connection: Connection
do {
    connection = try Connection(bus: .session)
    _ = try connection.export(try ObjectPath(pathText), interfaces: [
        Interface(interfaceName, methods: [
            .immediate("Ping") { _ in [] },
            .immediate("Echo", inputs: [Argument("text", .string)], outputs: [Argument("text", .string)]) { call in
                call.body
            },
        ]),
    ])
    guard try connection.requestNameAndWait(name, flags: .doNotQueue) == .primaryOwner else {
        fail("\(name) is already owned", status: 1)
    }
} catch {
    fail("\(error)", status: 1)
}
connection.onEvent { event in
    if event == .disconnected { kill(getpid(), SIGTERM) }
}
_ = write(1, "ready\n", 6)
var received: Int32 = 0
sigwait(&stopSignals, &received)
connection.close()
exit(0)
