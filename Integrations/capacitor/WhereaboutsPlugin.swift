import Capacitor
import Foundation
import Whereabouts

/// Whereabouts for a Capacitor app: every plugin method forwards its call's options, as JSON, to the
/// app's ``Whereabouts/Bridge`` and resolves with the bridge's envelope `{ result }`, or rejects with
/// the bridge error's message and code. The bridge's events (`locationData`, `location`, `region`)
/// are relayed with `notifyListeners`. Every rule lives in the bridge and the engine.
///
/// The plugin is a `CAPInstancePlugin`: Capacitor does not create it from `packageClassList`; the app
/// creates it over its bridge and registers the instance from its `CAPBridgeViewController` subclass:
///
/// ```swift
/// override open func capacitorDidLoad() {
///     bridge?.registerPluginInstance(WhereaboutsPlugin(bridge: AppDelegate.whereabouts))
/// }
/// ```
///
/// and in JavaScript: `registerPlugin<WhereaboutsNative & NativeEventSource>('Whereabouts')`.
///
/// `checkPermissions` overrides `CAPPlugin`'s method of the same name, which Capacitor's permission
/// pattern declares; here it is the bridge's `checkPermissions` like every other method.
@objc(WhereaboutsPlugin)
public final class WhereaboutsPlugin: CAPInstancePlugin, CAPBridgedPlugin, @unchecked Sendable {
    /// The plugin's native identifier.
    public let identifier = "WhereaboutsPlugin"
    /// The name JavaScript registers: `registerPlugin('Whereabouts')`.
    public let jsName = "Whereabouts"
    /// One promise method per bridge method.
    public let pluginMethods: [CAPPluginMethod] = [
        BridgeMethod.startTracking, .stopTracking, .getCurrentLocation, .getLocations, .getLocationData, .requestLocationUpdate,
        .startActiveTracking, .checkPermissions, .requestPermission, .locationAction, .addRegions, .removeRegions, .getRegions,
    ].map { CAPPluginMethod(name: $0.rawValue, returnType: CAPPluginReturnPromise) }

    private let whereabouts: Bridge
    private var relay: Task<Void, Never>?

    /// Creates the plugin over the app's bridge.
    public init(bridge: Bridge) {
        whereabouts = bridge
        super.init()
    }

    deinit { relay?.cancel() }

    /// Starts relaying the bridge's events to the plugin's listeners.
    override public func load() {
        let events = whereabouts.events()
        relay = Task { [weak self] in
            for await event in events {
                guard let body = (try? JSONSerialization.jsonObject(with: event.body)) as? [String: Any] else { continue }
                self?.notifyListeners(event.name.rawValue, data: body)
            }
        }
    }

    @objc func startTracking(_ call: CAPPluginCall) { forward(.startTracking, call) }
    @objc func stopTracking(_ call: CAPPluginCall) { forward(.stopTracking, call) }
    @objc func getCurrentLocation(_ call: CAPPluginCall) { forward(.getCurrentLocation, call) }
    @objc func getLocations(_ call: CAPPluginCall) { forward(.getLocations, call) }
    @objc func getLocationData(_ call: CAPPluginCall) { forward(.getLocationData, call) }
    @objc func requestLocationUpdate(_ call: CAPPluginCall) { forward(.requestLocationUpdate, call) }
    @objc func startActiveTracking(_ call: CAPPluginCall) { forward(.startActiveTracking, call) }
    @objc override public func checkPermissions(_ call: CAPPluginCall) { forward(.checkPermissions, call) }
    @objc func requestPermission(_ call: CAPPluginCall) { forward(.requestPermission, call) }
    @objc func locationAction(_ call: CAPPluginCall) { forward(.locationAction, call) }
    @objc func addRegions(_ call: CAPPluginCall) { forward(.addRegions, call) }
    @objc func removeRegions(_ call: CAPPluginCall) { forward(.removeRegions, call) }
    @objc func getRegions(_ call: CAPPluginCall) { forward(.getRegions, call) }

    /// Sends the call's options to the bridge and settles the call with its answer.
    private func forward(_ method: BridgeMethod, _ call: CAPPluginCall) {
        let options = call.dictionaryRepresentation
        let arguments = JSONSerialization.isValidJSONObject(options) ? try? JSONSerialization.data(withJSONObject: options) : nil
        let pending = PendingCall(call: call)
        Task { [whereabouts] in
            pending.settle(with: await whereabouts.call(method.rawValue, arguments: arguments))
        }
    }
}

/// A call waiting for the bridge. Capacitor's `resolve` and `reject` may be called from any thread,
/// and each call is settled once.
private struct PendingCall: @unchecked Sendable {
    let call: CAPPluginCall

    /// Resolves with the bridge's `{ result }` envelope, or rejects with its error's message and code.
    func settle(with reply: BridgeReply) {
        switch reply {
        case .success(let result):
            do {
                call.resolve(["result": try JSONSerialization.jsonObject(with: result, options: .fragmentsAllowed)])
            } catch {
                call.reject("the bridge's answer is not JSON: \(error)")
            }
        case .failure(let error):
            call.reject(error.message, error.code)
        }
    }
}
