import Foundation
import Whereabouts

/// Whereabouts for a React Native app, exported to JavaScript as `NativeModules.Whereabouts` (see
/// `WhereaboutsModule.m`): every method forwards its options, as JSON, to the app's
/// ``Whereabouts/Bridge`` and resolves its promise with the bridge's envelope `{ result }`, or rejects
/// it with the bridge error's code and message. While JavaScript listens, the bridge's events
/// (`locationData`, `location`, `region`) are sent with `sendEvent(withName:body:)`. Every rule lives
/// in the bridge and the engine.
///
/// React Native creates the module itself, so the app hands it the bridge first, in
/// `application(_:didFinishLaunchingWithOptions:)` before React Native starts:
///
/// ```swift
/// WhereaboutsModule.use(Bridge(engine: engine))
/// ```
@objc(WhereaboutsModule)
final class WhereaboutsModule: RCTEventEmitter, @unchecked Sendable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var configured: Bridge?

    private var relay: Task<Void, Never>?

    /// Hands every instance of the module the bridge it forwards to.
    static func use(_ bridge: Bridge) {
        lock.lock()
        configured = bridge
        lock.unlock()
    }

    private static var bridge: Bridge? {
        lock.lock()
        defer { lock.unlock() }
        return configured
    }

    /// The events JavaScript may listen to: `locationData`, `location`, `region`.
    override func supportedEvents() -> [String]! {
        BridgeEventName.allCases.map(\.rawValue)
    }

    /// The first JavaScript listener was added: relay the bridge's events.
    override func startObserving() {
        guard relay == nil, let events = Self.bridge?.events() else { return }
        relay = Task { [weak self] in
            for await event in events {
                guard let body = (try? JSONSerialization.jsonObject(with: event.body)) as? [String: Any] else { continue }
                self?.sendEvent(withName: event.name.rawValue, body: body)
            }
        }
    }

    /// The last JavaScript listener was removed: stop relaying.
    override func stopObserving() {
        relay?.cancel()
        relay = nil
    }

    @objc func startTracking(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.startTracking, options, resolve, reject)
    }

    @objc func stopTracking(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.stopTracking, options, resolve, reject)
    }

    @objc func getCurrentLocation(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.getCurrentLocation, options, resolve, reject)
    }

    @objc func getLocations(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.getLocations, options, resolve, reject)
    }

    @objc func getLocationData(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.getLocationData, options, resolve, reject)
    }

    @objc func requestLocationUpdate(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.requestLocationUpdate, options, resolve, reject)
    }

    @objc func startActiveTracking(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.startActiveTracking, options, resolve, reject)
    }

    @objc func checkPermissions(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.checkPermissions, options, resolve, reject)
    }

    @objc func requestPermission(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.requestPermission, options, resolve, reject)
    }

    @objc func locationAction(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.locationAction, options, resolve, reject)
    }

    @objc func addRegions(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.addRegions, options, resolve, reject)
    }

    @objc func removeRegions(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.removeRegions, options, resolve, reject)
    }

    @objc func getRegions(_ options: NSDictionary, resolver resolve: @escaping RCTPromiseResolveBlock, rejecter reject: @escaping RCTPromiseRejectBlock) {
        forward(.getRegions, options, resolve, reject)
    }

    /// Sends the options to the bridge and settles the promise with its answer.
    private func forward(
        _ method: BridgeMethod, _ options: NSDictionary, _ resolve: @escaping RCTPromiseResolveBlock,
        _ reject: @escaping RCTPromiseRejectBlock
    ) {
        let promise = PendingPromise(resolve: resolve, reject: reject)
        guard let bridge = Self.bridge else {
            return promise.refuse(code: "notConfigured", "Whereabouts is not set up: call WhereaboutsModule.use(_:) when the app launches")
        }
        let arguments = JSONSerialization.isValidJSONObject(options) ? try? JSONSerialization.data(withJSONObject: options) : nil
        Task { promise.settle(with: await bridge.call(method.rawValue, arguments: arguments)) }
    }
}

/// A promise waiting for the bridge. React Native's promise blocks may be called from any thread, and
/// each promise is settled once.
private struct PendingPromise: @unchecked Sendable {
    let resolve: RCTPromiseResolveBlock
    let reject: RCTPromiseRejectBlock

    /// Rejects the promise without asking the bridge.
    func refuse(code: String, _ message: String) { reject(code, message, nil) }

    /// Resolves with the bridge's `{ result }` envelope, or rejects with its error's code and message.
    func settle(with reply: BridgeReply) {
        switch reply {
        case .success(let result):
            do {
                resolve(["result": try JSONSerialization.jsonObject(with: result, options: .fragmentsAllowed)])
            } catch {
                reject(nil, "the bridge's answer is not JSON: \(error)", error)
            }
        case .failure(let error):
            reject(error.code, error.message, nil)
        }
    }
}
