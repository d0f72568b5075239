// RemoteControl — remote commands, now-playing info, and the MPRIS endpoint that publishes them
// only while the app is in an audio context (guidelines §4, design "MPRIS endpoint").
//
// Where each rule lives:
//
//   Commands/    RemoteCommand (the commands and their events), RemoteCommandCenter (enabled flag and
//                handler per command; availability drives every MPRIS Can*) — G-RC-FAITHFUL.
//   NowPlaying/  NowPlayingItem (metadata), NowPlayingInfo (state, elapsed + rate + monotonic
//                instant: Position is extrapolated on Get), MonotonicInstant (CLOCK_MONOTONIC).
//   MPRIS/       MPRISEndpoint: the object, the audio-context gate (G-RC-CONTEXT, G-RC-NOSTEAL),
//                the faithful call mapping (+Commands), the interface declarations (+Interfaces),
//                the SessionCore tie (+Session: G-APP-COOP, G-INT-UI); AudioContextGate (the
//                serialized name state machine); MPRISSnapshot (what the getters show and what
//                PropertiesChanged announces); MPRISBusName, MPRISConfiguration.
//
// Threads: no Swift concurrency and no timer on the runtime path. Remote calls arrive on the D-Bus
// connection's I/O thread and run the command handlers there, synchronously; an idle player wakes
// up zero times per second.
