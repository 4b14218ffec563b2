import Foundation

/// Every method the JavaScript side may call, by the name it uses.
public enum BridgeMethod: String, Sendable, CaseIterable {
    /// Turns tracking on: `{mode?, distance?, interval?, displacement?, foregroundDisplacement?, accuracy?}` → `null`.
    case startTracking
    /// Turns tracking off: `{}` → `null`.
    case stopTracking
    /// The newest position: `{}` → `{lat, lng, timestamp}` or `null`.
    case getCurrentLocation
    /// Where uploads go: `{upload: {kind: "whereabouts", url, device} | {kind: "owntracks", url, user, device,
    /// password?, trackerId?} | {kind: "firestore", project, apiKey, collection?, url?, tokenUrl?} | null}` → `null`.
    case configure
    /// The credential uploads present: `{token?, refreshToken?, expiresAt?, userId?}` → `null`.
    case setAuth
    /// Forgets the credential; records wait on disk until the next `setAuth`: `{}` → `null`.
    case signOut
    /// Changes the mode, now and for later launches: `{mode, distance?, interval?, displacement?, foregroundDisplacement?,
    /// accuracy?}` → `null`.
    case setMode
    /// The newest stored records, oldest first, pending only unless `includeUploaded`:
    /// `{includeUploaded?, limit?}` → `[{id, latitude, longitude, timestamp, accuracy, dwell, uploaded}]`.
    case getLocations
    /// Uploads pending records now: `{}` → `{trigger, delivered, eventsDelivered, rejected, requests, stoppedBy,
    /// message, retryAt}`; `notConfigured` before `configure`.
    case flush
    /// Deletes every stored record, uploaded or not: `{}` → `{removed}`.
    case clearLocations
    /// The snapshot: `{}` → `LocationData`.
    case getLocationData
    /// Takes one fix now: `{}` → `null`.
    case requestLocationUpdate
    /// Tracks at full accuracy for a while: `{minutes}` (1…1440) → `null`.
    case startActiveTracking
    /// Reads both permissions again (and asks for background when the rules allow):
    /// `{}` → `{location, backgroundLocation, status, granted, canAskAgain, foregroundPermission, backgroundPermission, problems}`.
    case checkPermissions
    /// Asks for a permission: `{kind: "foreground" | "background"}` → as ``checkPermissions``, once the user
    /// has answered the dialog it showed (at most 30 s later); at once when it showed none.
    case requestPermission
    /// The user started something that needs a position: `{}` → as ``checkPermissions``, once the user has
    /// answered the dialog it showed (at most 30 s later); at once when it showed none.
    case locationAction
    /// Adds regions: `{regions: [{id, latitude, longitude, radius, loiteringDelay?, notifyOnEntry?,
    /// notifyOnExit?}]}` or `{geojson: "<FeatureCollection>"}` → `{added}`.
    case addRegions
    /// Removes regions: `{ids: [string]}` → `null`.
    case removeRegions
    /// Replaces every region: as ``addRegions`` → `{count}`.
    case setRegions
    /// Every region and whether the device is inside:
    /// `{}` → `[{id, latitude, longitude, radius, loiteringDelay, notifyOnEntry, notifyOnExit, shape, inside}]`.
    case getRegions
    /// Saves a region centred on a fresh fix, in one call: `{id, radius, accuracy?, timeout?}` (metres, seconds;
    /// 20 m and 20 s by default) → `{region: {as getRegions}, accuracy, timestamp}`; `locationUnavailable` when no
    /// fix that precise came in time (nothing is saved; no older position is used).
    case addRegionHere
    /// Local notifications on region events: `{enabled, kinds?: ["enter" | "exit" | "dwell"], category?,
    /// actions?: [{id, title, opensApp?}]}` → `{enabled, allowed}` (`allowed`: the user lets the app notify;
    /// always `false` where the platform has no notifier). Kept across launches.
    case configureNotifications
    /// Marks a stored location as a region centred on it, or unmarks it: `{id, radius}` (metres; 0 unmarks)
    /// → the region as ``getRegions`` lists it, or `null` once unmarked.
    case markRegion

    /// Whether the call waits on the outside world (a fix, the server, the user's answer to a
    /// permission or notification dialog) before it answers, so that forwarded calls after it
    /// should not wait for it.
    var waitsOnTheWorld: Bool { [.addRegionHere, .flush, .requestPermission, .locationAction, .configureNotifications].contains(self) }

    /// The arguments the method takes, as an error message shows them.
    var expectedArguments: String {
        switch self {
        case .startTracking, .setMode:
            "{\"mode\"\(self == .setMode ? "" : "?"): \"manual\" | \"significant\" | \"move\" | \"interval\" | \"continuous\" | \"adaptive\" | \"stop-detect\", "
                + "\"distance\"?: metres, \"interval\"?: seconds, \"displacement\"?: metres, \"foregroundDisplacement\"?: metres, "
                + "\"accuracy\"?: \"best\" | \"tenMeters\" | "
                + "\"hundredMeters\" | \"kilometer\" | \"threeKilometers\"}"
        case .startActiveTracking: "{\"minutes\": a number from 1 to 1440}"
        case .requestPermission: "{\"kind\": \"foreground\" | \"background\"}"
        case .addRegions, .setRegions:
            "{\"regions\": [{\"id\": string, \"latitude\": degrees, \"longitude\": degrees, \"radius\": metres, "
                + "\"loiteringDelay\"?: seconds, \"notifyOnEntry\"?: bool, \"notifyOnExit\"?: bool}]} or {\"geojson\": string}"
        case .removeRegions: "{\"ids\": [string]}"
        case .configureNotifications:
            "{\"enabled\": bool, \"kinds\"?: [\"enter\" | \"exit\" | \"dwell\"], \"category\"?: string, "
                + "\"actions\"?: [{\"id\": string, \"title\": string, \"opensApp\"?: bool}]}"
        case .addRegionHere: "{\"id\": string, \"radius\": metres, \"accuracy\"?: metres, \"timeout\"?: 1 to 120 seconds}"
        case .markRegion: "{\"id\": a stored location's id, \"radius\": metres (0 unmarks)}"
        case .configure:
            "{\"upload\": {\"kind\": \"whereabouts\", \"url\", \"device\"} | {\"kind\": \"owntracks\", \"url\", \"user\", \"device\", "
                + "\"password\"?, \"trackerId\"?} | {\"kind\": \"firestore\", \"project\", \"apiKey\", \"collection\"?, \"url\"?, \"tokenUrl\"?} | null, "
                + "\"uploadInterval\"?: 0 to 86400 seconds | null}"
        case .setAuth: "{\"token\"?: string, \"refreshToken\"?: string, \"expiresAt\"?: milliseconds, \"userId\"?: string}"
        case .getLocations: "{\"includeUploaded\"?: bool, \"limit\"?: 1 to 100000}"
        default: "{} (no arguments)"
        }
    }
}
