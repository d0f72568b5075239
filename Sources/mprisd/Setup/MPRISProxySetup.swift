/// Bluetooth: BlueZ's `mpris-proxy`, when its user unit runs or starts at login, registers the
/// desktop's players with bluetoothd beside the daemon's own headset player (two players on the
/// headset, each Play button press answered twice). Setup stops it and masks the unit; undo
/// unmasks it (an enabled unit is enabled again: masking leaves its `wants` links) and starts it
/// when setup stopped it.
enum MPRISProxySetup {
    static let unit = "mpris-proxy.service"

    static func plan(_ stores: SetupStores, original: (SetupChange.Store) throws(SetupError) -> String?) throws(SetupError) -> [SetupChange] {
        guard stores.hasUserManager else { return [] }
        let state = try stores.unitFileState(unit)
        let wasActive = try original(.unitActive) != nil
        let wasMasked = try original(.unitMask) != nil
        let startsAtLogin = ["enabled", "enabled-runtime", "linked", "linked-runtime", "alias", "indirect"].contains(state)
        guard wasActive || startsAtLogin || (state.hasPrefix("masked") && !wasMasked) else { return [] }
        var changes: [SetupChange] = []
        if wasActive {
            changes.append(SetupChange(store: .unitActive, key: unit, before: nil, after: nil, stage: 0,
                                       purpose: "mpris-proxy stopped (the daemon is the headset's player)"))
        }
        changes.append(SetupChange(store: .unitMask, key: unit, before: nil, after: "masked", stage: 1,
                                   purpose: "mpris-proxy no longer started"))
        return changes
    }
}
