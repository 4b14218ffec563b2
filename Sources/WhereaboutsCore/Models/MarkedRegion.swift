import Foundation

/// A recorded location marked as a region (OwnTracks' "mark a previously published location as a
/// region and specify a monitoring radius"): a circle centred on the location, named by the
/// location's id, so marking it again changes the radius and a radius of 0 unmarks it.
public enum MarkedRegion {
    /// The largest radius in metres a mark may have. A larger circle is almost surely a unit mix-up
    /// (kilometres or feet given as metres), and iOS would shrink it to its
    /// `maximumRegionMonitoringDistance` anyway.
    public static let maximumRadius: Double = 100_000

    /// The id of the region marked at the location with id `locationID`: the id itself, lowercased
    /// as stored locations list it.
    public static func id(of locationID: UUID) -> String { locationID.uuidString.lowercased() }

    /// The region that marks `record` with `radius` metres (greater than 0: see ``isMark(_:)``).
    /// - Throws: ``ValidationError`` naming the radius when it is not a positive number of metres.
    public static func region(at record: LocationRecord, radius: Double) throws(ValidationError) -> Region {
        try Region(id: id(of: record.id), center: record.fix.coordinate, radius: radius)
    }

    /// Whether `radius` marks (1 m or more) rather than unmarks (exactly 0).
    /// - Throws: ``ValidationError`` naming the radius when it is negative, between 0 and 1 m (no
    ///   region is that small), not a number, infinite or larger than ``maximumRadius``.
    public static func isMark(_ radius: Double) throws(ValidationError) -> Bool {
        guard radius.isFinite, radius == 0 || (WireLimits.radius.lowerBound...maximumRadius).contains(radius) else {
            throw ValidationError(
                field: "radius", value: "\(radius)", problem: "is neither 0 nor a number of metres from 1 to \(Int(maximumRadius))",
                fix: "give the monitoring radius in metres (100 or more is reliable on iOS), or 0 to unmark the location")
        }
        return radius > 0
    }
}
