/// `wireplumber.conf.d` fragments for WirePlumber 0.5 (`PipeWireServer(wirePlumberFragments:)`).
public enum WirePlumberFragments {
    /// WirePlumber's opt-in role-based policy, reduced to two roles: every stream plays into the
    /// loopback sink of its media role (`Multimedia` for streams without one), and a `Navigation`
    /// stream ducks the `Multimedia` loopback — WirePlumber's own ducking, which the daemon must
    /// not stack a second duck on (issue 23). The shape of WirePlumber's example
    /// `media-role-nodes.conf`: a loopback module per role, its sink side marked as a role-based
    /// target with a priority and the actions toward lower and equal priorities.
    public static let roleLoopbacks: [String: String] = ["60-role-loopbacks.conf": """
        wireplumber.profiles = {
          main = { policy.linking.role-based.loopbacks = required }
        }
        wireplumber.settings = {
          node.stream.default-media-role = "Multimedia"
        }
        wireplumber.components.rules = [
          {
            matches = [ { provides = "~loopback.sink.*" } ]
            actions = {
              merge = {
                arguments = {
                  capture.props = {
                    policy.role-based.target = true
                    audio.position = [ FL, FR ]
                    media.class = Audio/Sink
                  }
                  playback.props = {
                    node.passive = true
                    media.role = "Loopback"
                  }
                }
                requires = [ support.export-core, pw.node-factory.adapter ]
              }
            }
          }
        ]
        wireplumber.components = [
          {
            type = virtual, provides = policy.linking.role-based.loopbacks
            requires = [ loopback.sink.role.multimedia, loopback.sink.role.navigation ]
          }
          {
            name = libpipewire-module-loopback, type = pw-module
            arguments = {
              node.name = "loopback.sink.role.multimedia"
              node.description = "Multimedia"
              capture.props = {
                device.intended-roles = [ "Music", "Movie", "Game", "Multimedia" ]
                policy.role-based.priority = 10
                policy.role-based.action.same-priority = "mix"
                policy.role-based.action.lower-priority = "mix"
              }
            }
            provides = loopback.sink.role.multimedia
          }
          {
            name = libpipewire-module-loopback, type = pw-module
            arguments = {
              node.name = "loopback.sink.role.navigation"
              node.description = "Navigation"
              capture.props = {
                device.intended-roles = [ "Navigation" ]
                policy.role-based.priority = 30
                policy.role-based.action.same-priority = "mix"
                policy.role-based.action.lower-priority = "duck"
              }
            }
            provides = loopback.sink.role.navigation
          }
        ]

        """]
}
