import DBus
import SystemContext

/// Registering with BlueZ: on every adapter with `Media1`, again when one comes back, withdrawn
/// when the active player changes; and who bluetoothd is.
extension HeadsetPlayer {
    func adaptersChanged(_ adapters: [ObjectPath]) {
        state.withLock { state in
            state.adapters = adapters
            // A registration on an adapter that went is gone with it.
            state.registered.formIntersection(adapters)
        }
        register()
    }

    /// Registers the current object on every adapter it is not registered on yet.
    func register() {
        let work = state.withLock { state -> (ExportedObject, DBusValue, [ObjectPath], UInt64)? in
            guard !state.stopped, state.loaded, let object = state.object else { return nil }
            let missing = state.adapters.filter { !state.registered.contains($0) }
            guard !missing.isEmpty else { return nil }
            state.registered.formUnion(missing)
            return (object, state.properties.registration, missing, state.generation)
        }
        guard let (object, properties, adapters, generation) = work else { return }
        warnAboutMPRISProxy()
        for adapter in adapters {
            let call = Message.methodCall(destination: BluezMediaNames.busName, path: adapter, interface: BluezMediaNames.media,
                                          member: "RegisterPlayer", body: [.objectPath(object.path), properties])
            system.call(call, timeout: .seconds(10)) { [weak self] reply in
                guard let self else { return }
                switch reply {
                case .success:
                    self.log("headset: registered \(object.path) on \(adapter)")
                case .failure(let error):
                    self.log("headset: RegisterPlayer on \(adapter) failed: \(error.message)")
                    self.state.withLock { state in
                        if state.generation == generation { state.registered.remove(adapter) }
                    }
                }
            }
        }
    }

    /// Unregisters `object` from `adapters` and stops answering for it.
    func withdraw(_ object: ExportedObject, from adapters: Set<ObjectPath>) {
        for adapter in adapters.sorted(by: { $0.rawValue < $1.rawValue }) {
            let call = Message.methodCall(destination: BluezMediaNames.busName, path: adapter, interface: BluezMediaNames.media,
                                          member: "UnregisterPlayer", body: [.objectPath(object.path)])
            system.call(call, timeout: .seconds(10)) { [log] reply in
                if case .failure(let error) = reply {
                    log("headset: UnregisterPlayer on \(adapter) failed: \(error.message)")
                } else {
                    log("headset: unregistered \(object.path) from \(adapter)")
                }
            }
        }
        object.unexport()
    }

    /// Follows `org.bluez`'s owner, the only sender whose commands the object takes.
    func watchBluezOwner() {
        system.watchNameOwner(BluezMediaNames.busName, { [weak self] owner in
            self?.state.withLock { $0.bluez = owner }
        }, completion: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let subscription):
                let stopped = self.state.withLock { $0.stopped }
                if stopped { subscription.cancel() } else { self.ownerWatch.withLock { $0 = subscription } }
            case .failure(let error): self.log("headset: bluetoothd not followed: \(error.message)")
            }
        })
    }
}

/// The names of BlueZ's media API, as this part uses them.
enum BluezMediaNames {
    static let busName = "org.bluez"
    static let media = "org.bluez.Media1"
}
