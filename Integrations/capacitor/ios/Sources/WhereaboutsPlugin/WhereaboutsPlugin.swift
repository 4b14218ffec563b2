import Capacitor
import Foundation
import Whereabouts
import WhereaboutsApple

#if canImport(WhereaboutsLaunch)
    import WhereaboutsLaunch
#endif

/// Whereabouts for a Capacitor app: every plugin method sends its call's options to the bridge
/// installed when the app finished launching (by `AutomaticSetup`, see ``WhereaboutsAutoStart``, or by
/// the app itself) and resolves with `{ result }`, or rejects with the bridge error's message and code
/// (`notConfigured` before a bridge is installed). The bridge's events reach JavaScript listeners through
/// `notifyListeners`. Capacitor finds the plugin through `CAPBridgedPlugin`; every rule lives in the
/// bridge and the engine.
@objc(WhereaboutsPlugin)
public final class WhereaboutsPlugin: CAPPlugin, CAPBridgedPlugin, @unchecked Sendable {
    /// The plugin's native identifier.
    public let identifier = "WhereaboutsPlugin"
    /// The name JavaScript registers: `registerPlugin('Whereabouts')`.
    public let jsName = "Whereabouts"
    /// One promise method per bridge method.
    public let pluginMethods: [CAPPluginMethod] = BridgeMethod.allCases.map {
        CAPPluginMethod(name: $0.rawValue, returnType: CAPPluginReturnPromise)
    }

    private var relay: Task<Void, Never>?

    deinit { relay?.cancel() }

    /// Starts relaying the bridge's events to the plugin's listeners, from when the bridge is installed.
    override public func load() {
        #if canImport(WhereaboutsLaunch)
            WhereaboutsLaunchLinked()
        #endif
        Bridge.whenInstalled { [weak self] bridge in
            self?.relay = bridge.relayEvents { [weak self] name, body in
                self?.notifyListeners(name, data: body as? [String: Any] ?? [:])
            }
        }
    }

    @objc func configure(_ call: CAPPluginCall) { forward(call) }
    @objc func setAuth(_ call: CAPPluginCall) { forward(call) }
    @objc func signOut(_ call: CAPPluginCall) { forward(call) }
    @objc func startTracking(_ call: CAPPluginCall) { forward(call) }
    @objc func stopTracking(_ call: CAPPluginCall) { forward(call) }
    @objc func setMode(_ call: CAPPluginCall) { forward(call) }
    @objc func getCurrentLocation(_ call: CAPPluginCall) { forward(call) }
    @objc func getLocations(_ call: CAPPluginCall) { forward(call) }
    @objc func getLocationData(_ call: CAPPluginCall) { forward(call) }
    @objc func requestLocationUpdate(_ call: CAPPluginCall) { forward(call) }
    @objc func startActiveTracking(_ call: CAPPluginCall) { forward(call) }
    @objc func flush(_ call: CAPPluginCall) { forward(call) }
    @objc func clearLocations(_ call: CAPPluginCall) { forward(call) }
    @objc override public func checkPermissions(_ call: CAPPluginCall) { forward(call) }
    @objc func requestPermission(_ call: CAPPluginCall) { forward(call) }
    @objc func locationAction(_ call: CAPPluginCall) { forward(call) }
    @objc func addRegions(_ call: CAPPluginCall) { forward(call) }
    @objc func setRegions(_ call: CAPPluginCall) { forward(call) }
    @objc func removeRegions(_ call: CAPPluginCall) { forward(call) }
    @objc func getRegions(_ call: CAPPluginCall) { forward(call) }
    @objc func addRegionHere(_ call: CAPPluginCall) { forward(call) }
    @objc func configureNotifications(_ call: CAPPluginCall) { forward(call) }
    @objc func markRegion(_ call: CAPPluginCall) { forward(call) }

    /// Sends the call's options to the bridge and settles the call with its answer.
    private func forward(_ call: CAPPluginCall) {
        let pending = PendingCall(call: call)
        Bridge.forward(
            call.methodName, options: call.options ?? [:], resolve: { pending.call.resolve(["result": $0]) },
            reject: { pending.call.reject($0.message, $0.code) })
    }
}

/// A call waiting for the bridge; Capacitor's `resolve` and `reject` may be called from any thread.
private struct PendingCall: @unchecked Sendable {
    let call: CAPPluginCall
}

/// Installs Whereabouts' launch observer before `main` runs (`+load` in the `WhereaboutsLaunch` target,
/// or in this pod under CocoaPods), so the engine and its bridge exist once the app finishes launching,
/// also when iOS relaunches it in the background for a location event: the app's code does nothing.
@objc(WhereaboutsAutoStart)
public final class WhereaboutsAutoStart: NSObject {
    @objc public static func install() {
        MainActor.assumeIsolated { AutomaticSetup.installObserver() }
    }
}
