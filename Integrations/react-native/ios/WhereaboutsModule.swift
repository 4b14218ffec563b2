import Foundation
import React
import Whereabouts

/// Whereabouts for a React Native app, exported to JavaScript as the `Whereabouts` module (see
/// `WhereaboutsModule.m`; the New Architecture runs it through its interop layer for legacy modules,
/// behind the TurboModule spec `src/NativeWhereabouts.ts`). Every method sends its options to the
/// bridge the app installed (`Bridge.install(_:)` in `application(_:didFinishLaunchingWithOptions:)`)
/// and resolves its promise with `{ result }`, or rejects it with the bridge error's code and
/// message (`notConfigured` before a bridge is installed). While JavaScript listens, the bridge's
/// events are sent with `sendEvent(withName:body:)`. Every rule lives in the bridge and the engine.
@objc(WhereaboutsModule)
final class WhereaboutsModule: RCTEventEmitter, @unchecked Sendable {
    private var relay: Task<Void, Never>?

    override static func requiresMainQueueSetup() -> Bool { false }

    /// The events JavaScript may listen to.
    override func supportedEvents() -> [String]! {
        BridgeEventName.allCases.map(\.rawValue)
    }

    /// The first JavaScript listener was added: relay the bridge's events.
    override func startObserving() {
        guard relay == nil else { return }
        relay = Bridge.installed?.relayEvents { [weak self] name, body in self?.sendEvent(withName: name, body: body) }
    }

    /// The last JavaScript listener was removed: stop relaying.
    override func stopObserving() {
        relay?.cancel()
        relay = nil
    }

    /// Every method of `WhereaboutsModule.m` lands here with its name.
    @objc func call(
        _ method: String, options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock,
        rejecter reject: @escaping RCTPromiseRejectBlock
    ) {
        let promise = PendingPromise(resolve: resolve, reject: reject)
        Bridge.forward(
            method, options: options as? [AnyHashable: Any] ?? [:], resolve: { promise.resolve(["result": $0]) },
            reject: { promise.reject($0.code, $0.message, nil) })
    }
}

/// A promise waiting for the bridge; React Native's blocks may be called from any thread.
private struct PendingPromise: @unchecked Sendable {
    let resolve: RCTPromiseResolveBlock
    let reject: RCTPromiseRejectBlock
}
