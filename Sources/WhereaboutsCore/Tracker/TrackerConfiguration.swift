import Foundation

/// Settings of the Tracker that do not change with the mode.
public struct TrackerConfiguration: Sendable, Equatable, Codable {
    /// The tracking mode.
    public var mode: TrackingMode
    /// How many OS region-monitoring slots there are (20 on iOS). One goes to the refresh region.
    public var slotCount: Int
    /// Base merge radius in metres: a fix this close to the last record extends that record's dwell
    /// time instead of adding a row. The effective radius grows with both fixes' accuracy.
    public var mergeRadius: Double
    /// Fixes whose accuracy is coarser than this many metres are not recorded (they still inform
    /// region logic that can use them).
    public var maxRecordAccuracy: Double
    /// A fix implying a speed above this many metres per second from the last accepted fix is dropped.
    public var maxSpeed: Double
    /// Request an upload flush once this many records are waiting.
    public var uploadThreshold: Int
    /// Seconds between two uploads started by the threshold, a region event or a motion change
    /// (stopping and coming to the foreground always upload at once).
    public var minimumFlushInterval: TimeInterval
    /// Accuracy of one-shot requests (start, app requests, re-planning).
    public var oneShotAccuracy: LocationAccuracy
    /// The smallest radius in metres handed to the OS for the refresh region.
    public var minimumRefreshRadius: Double
    /// The largest radius in metres handed to the OS for the refresh region.
    public var maximumRefreshRadius: Double

    /// Creates a configuration; every parameter has the default a phone app wants.
    public init(
        mode: TrackingMode, slotCount: Int = 20, mergeRadius: Double = 25, maxRecordAccuracy: Double = 200,
        maxSpeed: Double = 90, uploadThreshold: Int = 50, minimumFlushInterval: TimeInterval = 900,
        oneShotAccuracy: LocationAccuracy = .best,
        minimumRefreshRadius: Double = 150, maximumRefreshRadius: Double = 5000
    ) {
        self.mode = mode
        self.slotCount = slotCount
        self.mergeRadius = mergeRadius
        self.maxRecordAccuracy = maxRecordAccuracy
        self.maxSpeed = maxSpeed
        self.uploadThreshold = uploadThreshold
        self.minimumFlushInterval = minimumFlushInterval
        self.oneShotAccuracy = oneShotAccuracy
        self.minimumRefreshRadius = minimumRefreshRadius
        self.maximumRefreshRadius = maximumRefreshRadius
    }
}
