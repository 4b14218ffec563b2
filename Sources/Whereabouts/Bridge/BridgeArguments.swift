import Foundation
import WhereaboutsCore

/// `startTracking`'s arguments.
struct StartTrackingArguments: Decodable {
    var mode: String?
    var distance: Double?
    var interval: Double?
    var displacement: Double?
    var foregroundDisplacement: Double?
    var accuracy: String?

    /// The mode asked for, or `nil` to keep the configured one.
    func trackingMode() throws(ValidationError) -> TrackingMode? {
        guard let mode else {
            if distance != nil || interval != nil || displacement != nil || foregroundDisplacement != nil || accuracy != nil {
                throw ValidationError(
                    field: "mode", value: "null", problem: "is missing although mode parameters were given",
                    fix: "name the mode the parameters are for")
            }
            return nil
        }
        let level = try accuracy.map { name throws(ValidationError) in
            guard let level = LocationAccuracy(rawValue: name) else {
                throw ValidationError(
                    field: "accuracy", value: "\"\(name)\"", problem: "is not an accuracy",
                    fix: "use one of \(LocationAccuracy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return level
        }
        return try TrackingMode.named(
            mode, distance: distance, interval: interval, displacement: displacement, foregroundDisplacement: foregroundDisplacement,
            accuracy: level)
    }
}

/// `startActiveTracking`'s arguments.
struct ActiveTrackingArguments: Decodable {
    var minutes: Double
}

/// `requestPermission`'s arguments.
struct PermissionArguments: Decodable {
    var kind: String

    func permissionKind() throws(ArgumentProblem) -> PermissionKind {
        guard let known = PermissionKind(rawValue: kind) else {
            throw ArgumentProblem("kind \"\(kind)\" is not a permission kind")
        }
        return known
    }
}

/// `addRegions`'s arguments: circles, or a GeoJSON FeatureCollection as text.
struct AddRegionsArguments: Decodable {
    var regions: [CircleArgument]?
    var geojson: String?

    /// The validated regions; an error names the region's position and field.
    func validated() throws -> [Region] {
        switch (regions, geojson) {
        case (let circles?, nil):
            return try circles.enumerated().map { position, circle in
                do { return try circle.region() } catch { throw ArgumentProblem("regions[\(position)]: \(error)") }
            }
        case (nil, let text?):
            do { return try GeoJSONRegionReader.regions(from: Data(text.utf8), sourceName: "geojson") } catch {
                throw ArgumentProblem("\(error)")
            }
        case (nil, nil): throw ArgumentProblem("neither \"regions\" nor \"geojson\" is given")
        case (_?, _?): throw ArgumentProblem("both \"regions\" and \"geojson\" are given")
        }
    }
}

/// One circular region as JavaScript sends it.
struct CircleArgument: Decodable {
    var id: String
    var latitude: Double
    var longitude: Double
    var radius: Double
    var loiteringDelay: Double?
    var notifyOnEntry: Bool?
    var notifyOnExit: Bool?

    func region() throws(ValidationError) -> Region {
        try Region(
            id: id, center: Coordinate(latitude: latitude, longitude: longitude), radius: radius, notifyOnEntry: notifyOnEntry ?? true,
            notifyOnExit: notifyOnExit ?? true, loiteringDelay: loiteringDelay)
    }
}

/// `removeRegions`'s arguments.
struct RemoveRegionsArguments: Decodable {
    var ids: [String]
}

/// `configureNotifications`' arguments.
struct NotificationArguments: Decodable {
    struct Action: Decodable {
        var id: String
        var title: String
        var opensApp: Bool?
    }

    var enabled: Bool
    var kinds: [String]?
    var category: String?
    var actions: [Action]?

    func settings() throws(ArgumentProblem) -> RegionNotificationSettings {
        var kinds = Set<RegionEventKind>()
        for name in self.kinds ?? RegionEventKind.allCases.map(\.rawValue) {
            guard let kind = RegionEventKind(rawValue: name) else {
                throw ArgumentProblem("kinds has \"\(name)\"; give \"enter\", \"exit\" or \"dwell\"")
            }
            kinds.insert(kind)
        }
        let category = category ?? RegionNotificationSettings.defaultCategory
        guard !category.trimmingCharacters(in: .whitespaces).isEmpty else { throw ArgumentProblem("category is empty") }
        let actions = actions ?? []
        if let blank = actions.first(where: { $0.id.isEmpty || $0.title.isEmpty }) {
            throw ArgumentProblem("action \"\(blank.id)\" needs a non-empty id and title")
        }
        guard Set(actions.map(\.id)).count == actions.count else { throw ArgumentProblem("two actions have the same id") }
        return RegionNotificationSettings(
            enabled: enabled, kinds: kinds, categoryIdentifier: category,
            actions: actions.map { .init(identifier: $0.id, title: $0.title, opensApp: $0.opensApp ?? false) })
    }
}

/// `addRegionHere`'s arguments.
struct AddRegionHereArguments: Decodable {
    var id: String
    var radius: Double
    var accuracy: Double?
    var timeout: Double?
}

/// `markRegion`'s arguments.
struct MarkRegionArguments: Decodable {
    var id: String
    var radius: Double

    /// The location's id.
    func locationID() throws(ArgumentProblem) -> UUID {
        guard let uuid = UUID(uuidString: id) else {
            throw ArgumentProblem("id \"\(id)\" is not a location id (the UUID getLocations lists)")
        }
        return uuid
    }
}

/// An argument that decoded but makes no sense, in words.
struct ArgumentProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `configure`'s arguments: `{upload: {kind, …} | null}`; `null` stops uploading.
struct ConfigureArguments: Decodable {
    var upload: UploadSettings?
    /// The upload interval to set, seconds (`.some(nil)`: the mode's); `nil` when left out, which
    /// keeps the one in force.
    var uploadInterval: TimeInterval??

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard c.contains(.upload) else { throw ArgumentProblem("\"upload\" is missing (null stops uploading)") }
        upload = try c.decodeIfPresent(UploadSettings.self, forKey: .upload)?.validated()
        if c.contains(.uploadInterval) { uploadInterval = .some(try c.decodeIfPresent(Double.self, forKey: .uploadInterval)) }
    }

    private enum CodingKeys: String, CodingKey { case upload, uploadInterval }
}

/// `setAuth`'s arguments: the token uploads present, and for Firebase the refresh token that renews it.
struct SetAuthArguments: Decodable {
    var token: String?
    var refreshToken: String?
    /// JavaScript milliseconds.
    var expiresAt: Double?
    var userId: String?

    func tokens() throws(ArgumentProblem) -> AuthTokens {
        guard token != nil || refreshToken != nil else { throw ArgumentProblem("neither \"token\" nor \"refreshToken\" is given") }
        return AuthTokens(
            idToken: token, expiresAt: expiresAt.map { Date(timeIntervalSince1970: $0 / 1000) }, refreshToken: refreshToken, userID: userId)
    }
}

/// `getLocations`' arguments.
struct GetLocationsArguments: Decodable {
    var includeUploaded: Bool?
    var limit: Int?

    /// How many records at most: 1000 by default, at most 100 000.
    func validLimit() throws(ArgumentProblem) -> Int {
        let limit = limit ?? 1000
        guard (1...100_000).contains(limit) else { throw ArgumentProblem("limit \(limit) is not in 1...100000") }
        return limit
    }
}
