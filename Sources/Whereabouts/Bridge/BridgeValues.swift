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

/// The permission calls' answer: both records and the problems to show.
struct PermissionsValue: Encodable {
    let foregroundPermission: PermissionRecord?
    let backgroundPermission: PermissionRecord?
    let problems: [ProblemValue]

    init(_ permissions: Permissions, problems: [PermissionProblem]) {
        foregroundPermission = permissions.foreground
        backgroundPermission = permissions.background
        self.problems = problems.map(ProblemValue.init)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(foregroundPermission, forKey: .foregroundPermission)
        try c.encode(backgroundPermission, forKey: .backgroundPermission)
        try c.encode(problems, forKey: .problems)
    }

    private enum CodingKeys: String, CodingKey { case foregroundPermission, backgroundPermission, problems }
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

/// A region as `getRegions` lists it; polygons give their enclosing circle and `"shape": "polygon"`.
struct RegionValue: Encodable {
    let id: String
    let latitude: Double
    let longitude: Double
    let radius: Double
    let loiteringDelay: Double?
    let notifyOnEntry: Bool
    let notifyOnExit: Bool
    let shape: String

    init(_ region: Region) {
        id = region.id
        latitude = region.center.latitude
        longitude = region.center.longitude
        radius = region.radius
        loiteringDelay = region.loiteringDelay
        notifyOnEntry = region.notifyOnEntry
        notifyOnExit = region.notifyOnExit
        if case .circle = region.shape { shape = "circle" } else { shape = "polygon" }
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
    }

    private enum CodingKeys: String, CodingKey { case id, latitude, longitude, radius, loiteringDelay, notifyOnEntry, notifyOnExit, shape }
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
