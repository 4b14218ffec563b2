import Foundation
import WhereaboutsCore

/// `getCurrentLocation`'s answer: the travel app's `{lat, lng, timestamp}` (JavaScript milliseconds).
struct CurrentLocationValue: Encodable {
    let lat: Double
    let lng: Double
    let timestamp: Int64

    init(_ fix: Fix) {
        lat = fix.coordinate.latitude
        lng = fix.coordinate.longitude
        timestamp = JavaScriptTime.milliseconds(fix.timestamp)
    }
}

/// The permission calls' answer: both records, the problems to show, and the permission in each
/// platform's convention: Capacitor's `location` and `backgroundLocation` (`granted`, `denied`,
/// `prompt`), and Expo's `status` (`granted`, `denied`, `undetermined`), `granted` and `canAskAgain`
/// for the foreground permission.
struct PermissionsValue: Encodable {
    let location: PermissionState
    let backgroundLocation: PermissionState
    let status: String
    let granted: Bool
    let canAskAgain: Bool
    let foregroundPermission: PermissionRecord?
    let backgroundPermission: PermissionRecord?
    let problems: [ProblemValue]

    init(_ permissions: Permissions, problems: [PermissionProblem]) {
        location = PermissionState(permissions.foreground)
        backgroundLocation = PermissionState(permissions.background)
        status = ["granted": "granted", "denied": "denied"][location.rawValue] ?? "undetermined"
        granted = location == .granted
        canAskAgain = location != .denied
        foregroundPermission = permissions.foreground
        backgroundPermission = permissions.background
        self.problems = problems.map(ProblemValue.init)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(location, forKey: .location)
        try c.encode(backgroundLocation, forKey: .backgroundLocation)
        try c.encode(status, forKey: .status)
        try c.encode(granted, forKey: .granted)
        try c.encode(canAskAgain, forKey: .canAskAgain)
        try c.encode(foregroundPermission, forKey: .foregroundPermission)
        try c.encode(backgroundPermission, forKey: .backgroundPermission)
        try c.encode(problems, forKey: .problems)
    }

    private enum CodingKeys: String, CodingKey {
        case location, backgroundLocation, status, granted, canAskAgain, foregroundPermission, backgroundPermission, problems
    }
}

/// A permission as Capacitor states it.
enum PermissionState: String, Encodable {
    case granted, denied, prompt

    /// Granted; denied when only Settings can grant it (the foreground record's `canAskAgain` is
    /// `false`, or background was asked for and refused: iOS shows that dialog once); else the dialog
    /// can still be shown.
    init(_ record: PermissionRecord?) {
        guard let record else {
            self = .prompt
            return
        }
        if record.isGranted {
            self = .granted
        } else if record.canAskAgain.map({ !$0 }) ?? (record.requestedAt != nil) {
            self = .denied
        } else {
            self = .prompt
        }
    }
}

/// A permission problem as JavaScript sees it.
struct ProblemValue: Encodable {
    let code: String
    let kind: String
    let message: String
    let settingsCanFix: Bool

    init(_ problem: PermissionProblem) {
        code = problem.code.rawValue
        kind = problem.kind.rawValue
        message = problem.message
        settingsCanFix = problem.settingsCanFix
    }
}

/// A region as `getRegions` lists it, with whether the device is inside; polygons give their
/// enclosing circle and `"shape": "polygon"`.
struct RegionValue: Encodable {
    let id: String
    let latitude: Double
    let longitude: Double
    let radius: Double
    let loiteringDelay: Double?
    let notifyOnEntry: Bool
    let notifyOnExit: Bool
    let shape: String
    let inside: Bool

    init(_ region: Region, inside: Bool) {
        id = region.id
        latitude = region.center.latitude
        longitude = region.center.longitude
        radius = region.radius
        loiteringDelay = region.loiteringDelay
        notifyOnEntry = region.notifyOnEntry
        notifyOnExit = region.notifyOnExit
        if case .circle = region.shape { shape = "circle" } else { shape = "polygon" }
        self.inside = inside
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(radius, forKey: .radius)
        try c.encode(loiteringDelay, forKey: .loiteringDelay)
        try c.encode(notifyOnEntry, forKey: .notifyOnEntry)
        try c.encode(notifyOnExit, forKey: .notifyOnExit)
        try c.encode(shape, forKey: .shape)
        try c.encode(inside, forKey: .inside)
    }

    private enum CodingKeys: String, CodingKey {
        case id, latitude, longitude, radius, loiteringDelay, notifyOnEntry, notifyOnExit, shape, inside
    }
}

/// A region event as the `region` event pushes it.
struct RegionEventValue: Encodable {
    let regionId: String
    let kind: String
    let timestamp: Int64
    let initial: Bool
    let latitude: Double?
    let longitude: Double?

    init(_ event: RegionEvent) {
        regionId = event.regionID
        kind = event.kind.rawValue
        timestamp = JavaScriptTime.milliseconds(event.timestamp)
        initial = event.initial
        latitude = event.fix?.coordinate.latitude
        longitude = event.fix?.coordinate.longitude
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(regionId, forKey: .regionId)
        try c.encode(kind, forKey: .kind)
        try c.encode(timestamp, forKey: .timestamp)
        try c.encode(initial, forKey: .initial)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
    }

    private enum CodingKeys: String, CodingKey { case regionId, kind, timestamp, initial, latitude, longitude }
}

/// `addRegionHere`'s answer: the region saved (inside it, by construction) and the fix it is centred on.
struct RegionHereValue: Encodable {
    let region: RegionValue
    let accuracy: Double
    let timestamp: Int64

    init(_ region: Region, fix: Fix) {
        self.region = RegionValue(region, inside: true)
        accuracy = fix.horizontalAccuracy
        timestamp = JavaScriptTime.milliseconds(fix.timestamp)
    }
}
