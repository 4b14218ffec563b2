import Foundation

/// Every method the JavaScript side may call, by the name it uses.
public enum BridgeMethod: String, Sendable, CaseIterable {
    /// Turns tracking on: `{mode?, distance?, interval?, displacement?, accuracy?}` → `null`.
    case startTracking
    /// Turns tracking off: `{}` → `null`.
    case stopTracking
    /// The newest position: `{}` → `{lat, lng, timestamp}` or `null`.
    case getCurrentLocation
    /// Every record not yet uploaded: `{}` → `[{id, latitude, longitude, timestamp, accuracy, dwell, …}]`.
    case getLocations
    /// The snapshot: `{}` → `LocationData`.
    case getLocationData
    /// Takes one fix now: `{}` → `null`.
    case requestLocationUpdate
    /// Tracks at full accuracy for a while: `{minutes}` (1…1440) → `null`.
    case startActiveTracking
    /// Reads both permissions again (and asks for background when the rules allow):
    /// `{}` → `{foregroundPermission, backgroundPermission, problems}`.
    case checkPermissions
    /// Asks for a permission: `{kind: "foreground" | "background"}` → as ``checkPermissions``.
    case requestPermission
    /// The user started something that needs a position: `{}` → as ``checkPermissions``.
    case locationAction
    /// Adds regions: `{regions: [{id, latitude, longitude, radius, loiteringDelay?, notifyOnEntry?,
    /// notifyOnExit?}]}` or `{geojson: "<FeatureCollection>"}` → `{added}`.
    case addRegions
    /// Removes regions: `{ids: [string]}` → `null`.
    case removeRegions
    /// Every region: `{}` → `[{id, latitude, longitude, radius, loiteringDelay, notifyOnEntry, notifyOnExit, shape}]`.
    case getRegions

    /// The arguments the method takes, as an error message shows them.
    var expectedArguments: String {
        switch self {
        case .startTracking:
            "{\"mode\"?: \"manual\" | \"significant\" | \"move\" | \"interval\" | \"continuous\" | \"adaptive\" | \"stop-detect\", "
                + "\"distance\"?: metres, \"interval\"?: seconds, \"displacement\"?: metres, \"accuracy\"?: \"best\" | \"tenMeters\" | "
                + "\"hundredMeters\" | \"kilometer\" | \"threeKilometers\"}"
        case .startActiveTracking: "{\"minutes\": a number from 1 to 1440}"
        case .requestPermission: "{\"kind\": \"foreground\" | \"background\"}"
        case .addRegions:
            "{\"regions\": [{\"id\": string, \"latitude\": degrees, \"longitude\": degrees, \"radius\": metres, "
                + "\"loiteringDelay\"?: seconds, \"notifyOnEntry\"?: bool, \"notifyOnExit\"?: bool}]} or {\"geojson\": string}"
        case .removeRegions: "{\"ids\": [string]}"
        default: "{} (no arguments)"
        }
    }
}

/// The events pushed to JavaScript, by name.
public enum BridgeEventName: String, Sendable, CaseIterable {
    /// The ``LocationData`` snapshot changed; the body is the whole snapshot.
    case locationData
    /// A record was stored; the body is `{id, latitude, longitude, timestamp, accuracy, …}`.
    case location
    /// A region event happened; the body is `{regionId, kind, timestamp, latitude, longitude}`.
    case region
}
