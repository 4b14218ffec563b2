import Foundation
import React
import Whereabouts
import WhereaboutsApple

/// Whereabouts for a React Native app, exported to JavaScript as the `Whereabouts` module (see
/// `WhereaboutsModule.m`; the New Architecture runs it through its interop layer for legacy modules,
/// behind the TurboModule spec `src/NativeWhereabouts.ts`). Every method sends its options to the
/// bridge installed when the app finished launching (by `AutomaticSetup`, see ``WhereaboutsAutoStart``,
/// or by the app itself) and resolves its promise with `{ result }`, or rejects it with the bridge
/// error's code and message (`notConfigured` before a bridge is installed). While JavaScript listens,
/// the bridge's events are sent with `sendEvent(withName:body:)`. Every rule lives in the bridge and the engine.
@objc(WhereaboutsModule)
final class WhereaboutsModule: RCTEventEmitter, @unchecked Sendable {
    private let lock = NSLock()
    private var listening = false
    private var relay: Task<Void, Never>?

    override static func requiresMainQueueSetup() -> Bool { false }

    /// The events JavaScript may listen to.
    override func supportedEvents() -> [String]! {
        BridgeEventName.allCases.map(\.rawValue)
    }

    /// The first JavaScript listener was added: relay the bridge's events, from when it is installed.
    override func startObserving() {
        lock.lock()
        let first = !listening
        listening = true
        lock.unlock()
        if first { Bridge.whenInstalled { [weak self] bridge in self?.relay(bridge) } }
    }

    /// The last JavaScript listener was removed: stop relaying.
    override func stopObserving() {
        lock.lock()
        defer { lock.unlock() }
        listening = false
        relay?.cancel()
        relay = nil
    }

    private func relay(_ bridge: Bridge) {
        lock.lock()
        defer { lock.unlock() }
        guard listening, relay == nil else { return }
        relay = bridge.relayEvents { [weak self] name, body in self?.sendEvent(withName: name, body: body) }
    }

    /// Every Whereabouts method lands here with its name and its options as JSON text (`nil` for
    /// none). Text, not a dictionary: on the New Architecture the interop layer leaves out every key
    /// whose value is `null`, so `configure({upload: null})` would arrive as `{}` and be refused.
    @objc func call(
        _ method: String, options: String?, resolver resolve: @escaping RCTPromiseResolveBlock,
        rejecter reject: @escaping RCTPromiseRejectBlock
    ) {
        let promise = PendingPromise(resolve: resolve, reject: reject)
        Bridge.forward(
            method, json: options, resolve: { promise.resolve(["result": $0]) }, reject: { promise.reject($0.code, $0.message, nil) })
    }
}

/// A promise waiting for the bridge; React Native's blocks may be called from any thread.
private struct PendingPromise: @unchecked Sendable {
    let resolve: RCTPromiseResolveBlock
    let reject: RCTPromiseRejectBlock
}

/// Installs Whereabouts' launch observer before `main` runs (`+load` in `WhereaboutsModule.m`), so the
/// engine and its bridge exist once the app finishes launching, also when iOS relaunches it in the
/// background for a location event: the app's code does nothing.
@objc(WhereaboutsAutoStart)
final class WhereaboutsAutoStart: NSObject {
    @objc static func install() {
        MainActor.assumeIsolated { AutomaticSetup.installObserver() }
    }
}
