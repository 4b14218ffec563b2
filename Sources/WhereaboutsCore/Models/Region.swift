import Foundation

/// An area the app wants to know about: entering it, leaving it, or staying in it. A circle, or one
/// or more polygons (with holes) together with the smallest circle enclosing them, which is what the
/// OS is handed.
public struct Region: Sendable, Hashable, Codable, Identifiable {
    /// The app's identifier for the region; unique within a region set.
    public let id: String
    /// The centre of the circle (for polygons, of the smallest enclosing circle).
    public let center: Coordinate
    /// The radius in metres; greater than zero (for polygons, of the smallest enclosing circle).
    public let radius: Double
    /// The exact shape: the circle itself, or polygons judged point by point.
    public private(set) var shape: RegionShape
    /// Whether entering the region produces an event.
    public var notifyOnEntry: Bool
    /// Whether leaving the region produces an event.
    public var notifyOnExit: Bool
    /// Seconds spent inside before a dwell event; `nil` means no dwell events.
    public var loiteringDelay: TimeInterval?

    /// Creates a validated region.
    /// - Throws: ``ValidationError`` for an id the companion server would refuse (empty, longer than
    ///   ``WireLimits/regionIDLength`` characters or holding control characters) or one the engine
    ///   keeps for itself (starting `whereabouts.`), a radius outside ``WireLimits/radius`` (1 m to
    ///   1000 km), or a negative loitering delay.
    public init(
        id: String, center: Coordinate, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
        loiteringDelay: TimeInterval? = nil
    ) throws(ValidationError) {
        try Self.checkNew(id: id)
        guard radius.isFinite, radius > 0 else { throw Self.badRadius(radius) }
        try WireLimits.check(
            radius, field: "radius", in: WireLimits.radius, unit: "m", fix: "give the radius in metres, from 1 m to 1000 km")
        try self.init(
            stored: id, center: center, radius: radius, notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit,
            loiteringDelay: loiteringDelay, shape: .circle)
    }

    /// Ids starting with this belong to the engine (``MonitoredRegion/refreshRegionID``).
    public static let reservedIDPrefix = "whereabouts."

    /// The id rules a region must meet to be created, beyond those every stored region met: the
    /// companion server's (its events carry the id), and the engine's own prefix.
    private static func checkNew(id: String) throws(ValidationError) {
        try WireLimits.checkRegionID(id, field: "id")
        guard !id.hasPrefix(reservedIDPrefix) else {
            throw ValidationError(
                field: "id", value: String(reflecting: id),
                problem: "starts with \"\(reservedIDPrefix)\", which the engine keeps for its own regions",
                fix: "choose an id that does not start with \"\(reservedIDPrefix)\"")
        }
    }

    private static func badRadius(_ radius: Double) -> ValidationError {
        ValidationError(
            field: "radius", value: "\(radius)", problem: "is not a positive number of metres",
            fix: "give the radius in metres, greater than 0")
    }

    /// A region as stored: the checks every version of the engine made (a non-empty id, a positive
    /// radius, a non-negative loitering delay), so regions saved before the stricter rules of
    /// ``init(id:center:radius:notifyOnEntry:notifyOnExit:loiteringDelay:)`` still load.
    private init(
        stored id: String, center: Coordinate, radius: Double, notifyOnEntry: Bool, notifyOnExit: Bool,
        loiteringDelay: TimeInterval?, shape: RegionShape
    ) throws(ValidationError) {
        guard !id.isEmpty else {
            throw ValidationError(
                field: "id", value: "\"\"", problem: "is empty", fix: "give every region a non-empty identifier")
        }
        guard radius.isFinite, radius > 0 else { throw Self.badRadius(radius) }
        if let loiteringDelay, !(loiteringDelay.isFinite && loiteringDelay >= 0) {
            throw ValidationError(
                field: "loiteringDelay", value: "\(loiteringDelay)", problem: "is not a non-negative number of seconds",
                fix: "pass nil for no dwell events, or the seconds to wait inside")
        }
        self.id = id
        self.center = center
        self.radius = radius
        self.shape = shape
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.loiteringDelay = loiteringDelay
    }

    /// Creates a polygon region (a GeoJSON Polygon or MultiPolygon): `rings` holds each polygon's
    /// rings, outer first then holes. The OS is handed the smallest circle enclosing every vertex;
    /// inside or outside is decided exactly against the polygons.
    /// - Throws: ``ValidationError`` for an id ``init(id:center:radius:notifyOnEntry:notifyOnExit:loiteringDelay:)``
    ///   refuses, empty or degenerate rings, a ring at a pole, or a negative loitering delay. A
    ///   polygon of any size is taken: its enclosing circle is not a radius the app gave.
    public init(
        id: String, polygons rings: [[[Coordinate]]], notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
        loiteringDelay: TimeInterval? = nil
    ) throws(ValidationError) {
        let set = try PolygonSet(rings)
        let circle = EnclosingCircle.smallest(around: set.vertices)
        let radius = max(circle.radius, 1)
        try Self.checkNew(id: id)
        try self.init(
            stored: id, center: circle.center, radius: radius, notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit,
            loiteringDelay: loiteringDelay, shape: .polygons(set))
    }

    /// Signed distance in metres from `point` to the region's outline: negative inside.
    public func signedDistance(from point: Coordinate) -> Double {
        switch shape {
        case .circle: Geodesy.distance(point, center) - radius
        case .polygons(let set): set.signedDistance(from: point)
        }
    }

    /// Decodes a region and validates it as every version of the engine did (a non-empty id, a
    /// positive radius, a non-negative loitering delay), so that regions an older version stored
    /// still load.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            stored: c.decode(String.self, forKey: .id), center: c.decode(Coordinate.self, forKey: .center),
            radius: c.decode(Double.self, forKey: .radius), notifyOnEntry: c.decode(Bool.self, forKey: .notifyOnEntry),
            notifyOnExit: c.decode(Bool.self, forKey: .notifyOnExit),
            loiteringDelay: c.decodeIfPresent(Double.self, forKey: .loiteringDelay),
            shape: c.decodeIfPresent(RegionShape.self, forKey: .shape) ?? .circle)
    }
}
