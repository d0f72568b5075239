// A VoIP call: `swift run voip-call-example`, then `call` to place it and `hang up` to end it.
// During the call other audio is interrupted (a podcast pauses); hanging up deactivates the session
// with notify-others, so what the call interrupted may resume. End the input (Ctrl-D) to quit.
import AudioPolicyClient
import DBus
import SessionCore
import Synchronization

let bus = try Connection(bus: .session)
let profile = AppProfile.voip()                     // playAndRecord + voiceChat: a call
let placement = try SessionBroker.makeSession(on: bus, configuration: profile.configuration,
                                              name: "call", fallback: AudioSystem())
let call = Mutex(try placement.session.apply(profile))

/// The controller decides; the session does the session part; the rest is the call's sound.
func perform(_ decide: (inout PlaybackController) -> [PlaybackAction]) {
    call.withLock { call in
        placement.session.perform(decide(&call), with: &call) { action in
            if action == .startOutput { say("in a call") }
            if action == .showInterrupted { say("interrupted by another call") }
        }
    }
}

let events = placement.session.onEvent { event in perform { $0.handle(event) } }
while let line = readLine() {
    switch line {
    case "call": perform { $0.play() }
    case "hang up":
        perform { $0.stop() }                       // deactivates with notify-others
        say("hung up")
    default: say("commands: call, hang up")
    }
}
events.cancel()
perform { $0.stop() }
placement.client?.close()
