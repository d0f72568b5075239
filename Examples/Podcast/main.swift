// A podcast player that shares the speakers: `swift run podcast-example`, then `play` (or a media
// key: `playerctl play`, `pause`, `next`); a call or a navigation prompt pauses it and it resumes
// afterwards. End the input (Ctrl-D) to quit.
import AudioPolicyClient
import DBus
import Dispatch
import RemoteControl
import SessionCore

let bus = try Connection(bus: .session)
// The policy daemon's session when it runs (or can be started), an in-process one otherwise.
let placement = try SessionBroker.makeSession(on: bus, configuration: Podcast.profile.configuration,
                                              name: "podcast", fallback: AudioSystem())
// On the same connection as the session: the daemon knows the player as this app's.
let endpoint = try MPRISEndpoint(connection: bus,
                                 configuration: MPRISConfiguration(name: try MPRISBusName(application: "podcast"),
                                                                   identity: "Podcast example"),
                                 commands: RemoteCommandCenter())
endpoint.attach(placement.session)
let podcast = try Podcast(session: placement.session, endpoint: endpoint)

// The media keys, through MPRIS. They arrive on the connection's thread, which must stay free to
// carry the daemon's answers: they are handled in order on a queue of their own.
let keys = DispatchQueue(label: "media-keys")
endpoint.commands.setHandler(.play) { _ in keys.async { podcast.play() }; return .success }
endpoint.commands.setHandler(.pause) { _ in keys.async { podcast.pause() }; return .success }
endpoint.commands.setHandler(.nextTrack) { _ in keys.async { podcast.next() }; return .success }
let events = placement.session.onEvent { podcast.handle($0) }

while let line = readLine() {
    switch line {
    case "play": podcast.play()
    case "pause": podcast.pause()
    case "next": podcast.next()
    default: say("commands: play, pause, next")
    }
}
events.cancel()
podcast.pause()
endpoint.close()
placement.client?.close()
