import Foundation

/// A stored position: the fix, a stable identifier that makes every upload idempotent, why it was
/// recorded and how long the device stayed there.
public struct LocationRecord: Sendable, Hashable, Identifiable {
    /// Stable identity; a resend carries the same id, so a server can drop the copy.
    public let id: UUID
    /// The position.
    public var fix: Fix
    /// Why it was recorded.
    public var trigger: RecordTrigger
    /// Seconds the device stayed within the merge radius after the fix.
    public var dwell: TimeInterval

    /// Creates a record with the given id.
    public init(id: UUID, fix: Fix, trigger: RecordTrigger, dwell: TimeInterval = 0) {
        self.id = id
        self.fix = fix
        self.trigger = trigger
        self.dwell = dwell
    }

    /// Creates a record with a new time-ordered id (``RecordID``) for the fix's own timestamp.
    public init(fix: Fix, trigger: RecordTrigger, dwell: TimeInterval = 0) {
        self.init(id: RecordID.make(at: fix.timestamp), fix: fix, trigger: trigger, dwell: dwell)
    }
}

extension LocationRecord {
    /// Rebuilds a record read back from storage. Values were validated when written; should a damaged
    /// row carry an invalid accuracy, speed or course, those optional parts are dropped rather than
    /// failing the whole read.
    public static func restored(
        id: UUID, latitude: Double, longitude: Double, accuracy: Double, altitude: Double?, speed: Double?, course: Double?,
        timestamp: Date, source: FixSource = .unknown, trigger: RecordTrigger, dwell: TimeInterval
    ) -> LocationRecord {
        let coordinate = Coordinate(normalizingLatitude: latitude, longitude: longitude)
        let fix =
            (try? Fix(
                coordinate: coordinate, horizontalAccuracy: accuracy, altitude: altitude, speed: speed, course: course,
                timestamp: timestamp,
                source: source))
            ?? (try! Fix(
                coordinate: coordinate, horizontalAccuracy: accuracy.isFinite ? abs(accuracy) : 0, timestamp: timestamp, source: source))
        return LocationRecord(id: id, fix: fix, trigger: trigger, dwell: dwell)
    }
}
