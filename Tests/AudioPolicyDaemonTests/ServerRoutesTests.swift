@testable import AudioPolicyDaemon
import AudioServer
import SessionCore
import XCTest

/// The pure rules from the audio server's inventory to ports, picks and the mic mute
/// (`ServerRoutes`), on synthetic inventories.
final class ServerRoutesTests: XCTestCase {
    func testEachAvailableSinkIsAnOutputPortTypedFromItsProperties() {
        var server = ServerInventories()
        server.addSink("null-sink", description: "Null Output")
        server.addSink("bluez_sink.A", properties: ["device.bus": "bluetooth", "bluetooth.protocol": "a2dp_sink"])
        server.addSink("bluez_output.B", properties: ["device.bus": "bluetooth", "api.bluez5.profile": "headset-head-unit"])
        server.addSink("usb-dac", properties: ["device.bus": "usb", "device.form_factor": "headphone"])
        server.addSink("hdmi", ports: [DevicePort(name: "hdmi-output-0", description: "HDMI", availability: .yes)],
                       activePort: "hdmi-output-0")
        server.addSink("tv", properties: ["device.profile.name": "hdmi-stereo-extra1"])
        server.addSink("phones", properties: ["device.form_factor": "headset"])
        server.addSink("analog", ports: [DevicePort(name: "analog-output-headphones", description: "Headphones", availability: .yes)],
                       activePort: "analog-output-headphones")
        server.addSink("laptop", properties: ["device.form_factor": "internal"])
        server.addSink("tunnel", properties: ["tunnel.remote.server": "tcp:host"])

        var routes = ServerRoutes()
        let update = routes.update(for: server.connected())
        let types = Dictionary(uniqueKeysWithValues: update.connected.map { ($0.id, $0.type) })
        XCTAssertEqual(types, [
            "pulse-sink:null-sink": .lineOut, "pulse-sink:bluez_sink.A": .bluetoothA2DP,
            "pulse-sink:bluez_output.B": .bluetoothHFP, "pulse-sink:usb-dac": .usbAudio, "pulse-sink:hdmi": .hdmi,
            "pulse-sink:tv": .hdmi, "pulse-sink:phones": .headphones, "pulse-sink:analog": .headphones,
            "pulse-sink:laptop": .speaker, "pulse-sink:tunnel": .network,
        ])
        XCTAssertEqual(update.connected.first { $0.id == "pulse-sink:null-sink" }?.name, "Null Output")
        XCTAssertEqual(update.disconnected, [])
        XCTAssertNil(update.picked, "the default found at connection is nobody's pick now")
        XCTAssertNil(update.micMuted)
    }

    func testTheDefaultSinkConnectsLastSoThatAutomaticRoutingLandsOnIt() {
        var server = ServerInventories()
        server.addSink("a-sink")
        server.addSink("m-sink")
        server.addSink("z-sink")
        server.inventory.defaultSink = "m-sink"
        var routes = ServerRoutes()
        XCTAssertEqual(routes.update(for: server.connected()).connected.map(\.id),
                       ["pulse-sink:a-sink", "pulse-sink:z-sink", "pulse-sink:m-sink"])
    }

    func testASinkAppearingConnectsAndDisappearingDisconnects() {
        var server = ServerInventories()
        server.addSink("null-sink")
        var routes = ServerRoutes()
        _ = routes.update(for: server.connected())

        let appeared = routes.update(for: server.change { $0.addSink("usb-dac", properties: ["device.bus": "usb"]) })
        XCTAssertEqual(appeared, ServerRouteUpdate(connected: [AudioPort(id: "pulse-sink:usb-dac", name: "usb-dac", type: .usbAudio)]))
        XCTAssertEqual(routes.serverDefault, "pulse-sink:null-sink")
        let unrelated = routes.update(for: server.change { $0.addSource("mic") })
        XCTAssertTrue(unrelated.isEmpty, "a source is not an output: \(unrelated)")
        let gone = routes.update(for: server.change { $0.remove(.sink, named: "usb-dac") })
        XCTAssertEqual(gone, ServerRouteUpdate(disconnected: ["pulse-sink:usb-dac"]))
        XCTAssertEqual(routes.serverDefault, "pulse-sink:null-sink")
        XCTAssertEqual(routes.ports.keys.sorted(), ["pulse-sink:null-sink"])
    }

    func testAnActivePortUnavailableDisconnectsAndAvailableAgainConnects() {
        var server = ServerInventories()
        server.addSink("analog", ports: [DevicePort(name: "analog-output-lineout", description: "Line Out", availability: .yes)],
                       activePort: "analog-output-lineout")
        var routes = ServerRoutes()
        _ = routes.update(for: server.connected())

        let unplugged = routes.update(for: server.change { $0.edit(.sink, named: "analog") { $0.ports[0].availability = .no } })
        XCTAssertEqual(unplugged, ServerRouteUpdate(disconnected: ["pulse-sink:analog"]))
        let again = routes.update(for: server.change { $0.edit(.sink, named: "analog") { $0.ports[0].availability = .yes } })
        XCTAssertEqual(again.connected.map(\.id), ["pulse-sink:analog"])
        XCTAssertEqual(again.disconnected, [])
        let unknown = routes.update(for: server.change { $0.edit(.sink, named: "analog") { $0.ports[0].availability = .unknown } })
        XCTAssertTrue(unknown.isEmpty, "hardware that cannot tell counts as available: \(unknown)")
    }

    func testADefaultSinkChangeIsTheUsersPickAndComesAfterRemovals() {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSink("usb-dac")
        server.addSink("hdmi")
        var routes = ServerRoutes()
        _ = routes.update(for: server.connected())

        let picked = routes.update(for: server.change { $0.inventory.defaultSink = "usb-dac" })
        XCTAssertEqual(picked, ServerRouteUpdate(picked: "pulse-sink:usb-dac"))
        XCTAssertEqual(routes.serverDefault, "pulse-sink:usb-dac")
        let same = routes.update(for: server.change { $0.inventory.defaultSink = "usb-dac" })
        XCTAssertTrue(same.isEmpty)

        // One change removing a sink and picking another: the update holds both, and the follower
        // applies removals first.
        let both = routes.update(for: server.change {
            $0.remove(.sink, named: "hdmi")
            $0.inventory.defaultSink = "null-sink"
        })
        XCTAssertEqual(both, ServerRouteUpdate(disconnected: ["pulse-sink:hdmi"], picked: "pulse-sink:null-sink"))
        XCTAssertEqual(routes.serverDefault, "pulse-sink:null-sink")
    }

    func testTheServersFallbackAfterTheDefaultWentAwayIsNoPick() {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSink("usb-dac")
        var routes = ServerRoutes()
        _ = routes.update(for: server.connected())
        _ = routes.update(for: server.change { $0.inventory.defaultSink = "usb-dac" })

        // In one event…
        var oneEvent = server
        var routesOne = routes
        let together = routesOne.update(for: oneEvent.change {
            $0.remove(.sink, named: "usb-dac")
            $0.inventory.defaultSink = "null-sink"
        })
        XCTAssertEqual(together, ServerRouteUpdate(disconnected: ["pulse-sink:usb-dac"]))
        XCTAssertEqual(routesOne.serverDefault, "pulse-sink:null-sink")
        // …or in two (the sink removal, then the server's new default).
        let removed = routes.update(for: server.change { $0.remove(.sink, named: "usb-dac") })
        XCTAssertEqual(removed, ServerRouteUpdate(disconnected: ["pulse-sink:usb-dac"]))
        XCTAssertNil(routes.serverDefault, "the default names a sink that is gone")
        let fallback = routes.update(for: server.change { $0.inventory.defaultSink = "null-sink" })
        XCTAssertTrue(fallback.isEmpty, "the default named a sink that was gone already: \(fallback)")
    }

    func testAFirstDefaultAfterNoneIsTheServerSettlingNotAPick() {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSink("usb-dac")
        server.inventory.defaultSink = nil  // pipewire-pulse before WirePlumber chose one
        var routes = ServerRoutes()
        _ = routes.update(for: server.connected())
        let settled = routes.update(for: server.change { $0.inventory.defaultSink = "null-sink" })
        XCTAssertNil(settled.picked)
        XCTAssertEqual(routes.update(for: server.change { $0.inventory.defaultSink = "usb-dac" }).picked, "pulse-sink:usb-dac")
    }

    func testSinksOfAJackWatchedCardLeavePlugStateToTheJacks() {
        func makeServer() -> ServerInventories {
            var server = ServerInventories()
            server.addSink("alsa_output.pci.analog-stereo", properties: ["alsa.card": "0", "device.form_factor": "internal"],
                           ports: [DevicePort(name: "analog-output-speaker", description: "Speakers", availability: .unknown),
                                   DevicePort(name: "analog-output-headphones", description: "Headphones", availability: .yes)],
                           activePort: "analog-output-headphones")
            return server
        }
        let unplug: (inout ServerInventories) -> Void = { server in
            server.edit(.sink, named: "alsa_output.pci.analog-stereo") {
                $0.ports[1].availability = .no
                $0.activePort = "analog-output-headphones"
            }
        }

        for watch in [JackWatch.card(0), .anyCard] {
            var server = makeServer()
            var routes = ServerRoutes(jacks: watch)
            let connected = routes.update(for: server.connected())
            XCTAssertEqual(connected.connected.map(\.type), [.speaker],
                           "\(watch): the headphones are the jack monitor's port, not the sink's")
            let unplugged = routes.update(for: server.change(unplug))
            XCTAssertTrue(unplugged.isEmpty, "\(watch): the jack monitor reports the unplug, once: \(unplugged)")
            let cardGone = routes.update(for: server.change { $0.remove(.sink, named: "alsa_output.pci.analog-stereo") })
            XCTAssertEqual(cardGone.disconnected, ["pulse-sink:alsa_output.pci.analog-stereo"], "\(watch): the card itself going is reported")
        }
        for watch in [JackWatch.none, .card(1)] {
            var server = makeServer()
            var routes = ServerRoutes(jacks: watch)
            XCTAssertEqual(routes.update(for: server.connected()).connected.map(\.type), [.headphones], "\(watch)")
            XCTAssertEqual(routes.update(for: server.change(unplug)).disconnected, ["pulse-sink:alsa_output.pci.analog-stereo"],
                           "\(watch): no jack monitor for this card: the server's availability is the plug state")
        }
        var nonALSA = ServerInventories()
        nonALSA.addSink("usb", properties: ["device.bus": "usb"],
                        ports: [DevicePort(name: "out", description: "Out", availability: .no)], activePort: "out")
        var routes = ServerRoutes(jacks: .anyCard)
        XCTAssertEqual(routes.update(for: nonALSA.connected()).connected, [], "a sink on no ALSA card keeps the server's availability")
    }

    /// Both servers switch a laptop's analog sink to its speakers when the headphones are pulled
    /// out: the sink stays available, but its streams' sound left the headphones — a loss of that
    /// sink's port, then the port again as speakers. Plugging in, or a switch the user makes
    /// between two plugged ports, loses nothing.
    func testAnUnpluggedActivePortIsALossEvenWhenTheServerSwitchesToAnother() {
        var server = ServerInventories()
        let laptop = "alsa_output.pci.analog-stereo"
        server.addSink(laptop, properties: ["alsa.card": "0"],
                       ports: [DevicePort(name: "analog-output-speaker", description: "Speakers", availability: .unknown),
                               DevicePort(name: "analog-output-headphones", description: "Headphones", availability: .yes)],
                       activePort: "analog-output-headphones")
        var routes = ServerRoutes()
        XCTAssertEqual(routes.update(for: server.connected()).connected.map(\.type), [.headphones])

        let unplugged = routes.update(for: server.change { server in
            server.edit(.sink, named: laptop) {
                $0.ports[1].availability = .no
                $0.activePort = "analog-output-speaker"
            }
        })
        XCTAssertEqual(unplugged.disconnected, ["pulse-sink:\(laptop)"], "the headphones' sound is gone")
        XCTAssertEqual(unplugged.connected.map(\.type), [.speaker], "the same sink, now through the speakers")

        let pluggedIn = routes.update(for: server.change { server in
            server.edit(.sink, named: laptop) {
                $0.ports[1].availability = .yes
                $0.activePort = "analog-output-headphones"
            }
        })
        XCTAssertEqual(pluggedIn.disconnected, [], "plugging in never is a loss")
        XCTAssertEqual(pluggedIn.connected.map(\.type), [.headphones])

        let picked = routes.update(for: server.change { server in
            server.edit(.sink, named: laptop) { $0.activePort = "analog-output-speaker" }
        })
        XCTAssertEqual(picked.disconnected, [], "the user's switch between plugged ports loses nothing")

        var watched = ServerRoutes(jacks: .card(0))
        var again = ServerInventories()
        again.addSink(laptop, properties: ["alsa.card": "0"],
                      ports: [DevicePort(name: "analog-output-headphones", description: "Headphones", availability: .yes)],
                      activePort: "analog-output-headphones")
        _ = watched.update(for: again.connected())
        let jackUnplug = watched.update(for: again.change { $0.edit(.sink, named: laptop) { $0.ports[0].availability = .no } })
        XCTAssertTrue(jackUnplug.isEmpty, "the jack monitor reports this card's unplug: \(jackUnplug)")
    }

    func testAJackOfTheWatchedCardLeadsToEverySinkOfThatCard() {
        var server = ServerInventories()
        server.addSink("alsa_output.pci.analog-stereo", properties: ["alsa.card": "0"])
        server.addSink("alsa_output.usb.analog-stereo", properties: ["alsa.card": "1"])
        server.addSink("bluez_output.00_11", properties: ["device.bus": "bluetooth"])
        let headphones = AudioPort(id: "hw:0:Headphone Jack", name: "Headphones", type: .headphones)
        XCTAssertEqual(JackWatch.card(0).sinks(behind: headphones, control: "hw:0", in: server.inventory),
                       ["alsa_output.pci.analog-stereo"])
        XCTAssertEqual(JackWatch.anyCard.sinks(behind: AudioPort(id: "fake:Headphone Jack", name: "H", type: .headphones),
                                               control: "fake", in: server.inventory),
                       ["alsa_output.pci.analog-stereo", "alsa_output.usb.analog-stereo"])
        XCTAssertEqual(JackWatch.card(0).sinks(behind: AudioPort(id: "hw:0:Mic Jack", name: "Mic", type: .headsetMic),
                                               control: "hw:0", in: server.inventory), [], "an input jack carries no sink's sound")
        XCTAssertEqual(JackWatch.card(0).sinks(behind: AudioPort(id: "/org/bluez/hci0/dev_00_11", name: "BT", type: .bluetoothA2DP),
                                               control: "hw:0", in: server.inventory), [], "not a jack of the card")
        XCTAssertEqual(JackWatch.none.sinks(behind: headphones, control: nil, in: server.inventory), [])
    }

    func testBluetoothSinksAreLeftToBlueZWhenTheDaemonFollowsIt() {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSink("bluez_output.00_11_22_33_44_55.1", properties: ["device.bus": "bluetooth"])
        var followed = ServerRoutes(followsBluetooth: true)
        XCTAssertEqual(followed.update(for: server.connected()).connected.map(\.id), ["pulse-sink:null-sink"])
        let gone = followed.update(for: server.change { $0.remove(.sink, named: "bluez_output.00_11_22_33_44_55.1") })
        XCTAssertTrue(gone.isEmpty, "BlueZ reports the headset going: \(gone)")

        var alone = ServerRoutes(followsBluetooth: false)
        server.addSink("bluez_output.00_11_22_33_44_55.1", properties: ["device.bus": "bluetooth"])
        XCTAssertEqual(alone.update(for: server.connected()).connected.map(\.type), [.bluetoothA2DP, .lineOut])
    }

    func testJackWatchFromTheControlName() {
        XCTAssertEqual(JackWatch.forControl(nil), JackWatch.none)
        XCTAssertEqual(JackWatch.forControl("hw:2"), .card(2))
        XCTAssertEqual(JackWatch.forControl("hw:12,0"), .card(12))
        XCTAssertEqual(JackWatch.forControl("hw:PCH"), .anyCard)
        XCTAssertEqual(JackWatch.forControl("fake"), .anyCard)
    }

    func testTheDefaultSourcesMuteIsTheMicMuteKey() {
        var server = ServerInventories()
        let sink = server.addSink("null-sink")
        server.addSource("null-sink.monitor", monitorOf: sink.index)
        server.addSource("mic")
        server.addSource("other-mic", muted: true)
        server.inventory.defaultSource = "mic"
        var routes = ServerRoutes()
        XCTAssertNil(routes.update(for: server.connected()).micMuted)

        XCTAssertEqual(routes.update(for: server.change { $0.edit(.source, named: "mic") { $0.isMuted = true } }).micMuted, true)
        XCTAssertEqual(routes.update(for: server.change { $0.edit(.source, named: "mic") { $0.isMuted = false } }).micMuted, false)
        XCTAssertEqual(routes.update(for: server.change { $0.inventory.defaultSource = "other-mic" }).micMuted, true,
                       "a muted microphone becoming the default")
        XCTAssertNil(routes.update(for: server.change { $0.edit(.sink, named: "null-sink") { $0.isMuted = true } }).micMuted,
                     "a sink's mute is not the mic's")
        XCTAssertEqual(routes.update(for: server.change { $0.inventory.defaultSource = "null-sink.monitor" }).micMuted, false,
                       "a monitor is no microphone")
        XCTAssertNil(routes.update(for: server.change { $0.edit(.source, named: "null-sink.monitor") { $0.isMuted = true } }).micMuted)

        server.inventory.defaultSource = "other-mic"
        XCTAssertEqual(routes.update(for: server.connected()).micMuted, true, "read afresh on connection")
        XCTAssertEqual(routes.update(for: server.disconnected()).micMuted, false, "no server: unknown counts as unmuted")
    }

    func testAServerRestartDisconnectsOnlyTheSinksThatDidNotComeBack() {
        var server = ServerInventories()
        server.addSink("null-sink")
        server.addSink("usb-dac")
        server.addSink("hdmi")
        var routes = ServerRoutes()
        XCTAssertEqual(routes.update(for: server.connected()).connected.count, 3)

        let gone = routes.update(for: server.disconnected())
        XCTAssertTrue(gone.isEmpty, "the ports stay while the server restarts: \(gone)")
        XCTAssertEqual(routes.ports.count, 3)

        // Back with new indices, one sink fewer, one more.
        var restarted = ServerInventories()
        restarted.addSink("spare")
        restarted.addSink("hdmi")
        restarted.addSink("null-sink")
        let back = routes.update(for: restarted.connected())
        XCTAssertEqual(back.disconnected, ["pulse-sink:usb-dac"])
        XCTAssertEqual(back.connected.map(\.id), ["pulse-sink:spare"])
        XCTAssertNil(back.picked)
    }
}
