import Foundation

/// Settings of the Tracker that do not change with the mode.
public struct TrackerConfiguration: Sendable, Equatable, Codable {
    /// The tracking mode.
    public var mode: TrackingMode
    /// How many OS region-monitoring slots there are (20 on iOS). One goes to the refresh region, so
    /// fewer than 1 counts as 1 (a stored 0 must not stop every launch).
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
    /// (stopping, coming to the foreground and a visit arrival at a device judged still upload at
    /// once); `nil` (the default) takes the mode's own, ``TrackingMode/uploadInterval``: half an hour
    /// but for the `efficient` preset's hour. Each upload costs about 12 J of radio whatever its
    /// size, and the arrival upload brings a trip's end to the server minutes after the device settles.
    public var minimumFlushInterval: TimeInterval?
    /// Accuracy of one-shot requests (start, app requests, re-planning).
    public var oneShotAccuracy: LocationAccuracy
    /// The smallest radius in metres handed to the OS for the refresh region.
    public var minimumRefreshRadius: Double
    /// The largest radius in metres handed to the OS for the refresh region.
    public var maximumRefreshRadius: Double
    /// How late the platform's region monitoring reports a crossing; the slot planner sizes the
    /// circles it hands the OS for it (``SlotPlanner/circle(for:state:cushion:device:handed:)``).
    public var regionCushion: RegionCushion

    /// Creates a configuration; every parameter has the default a phone app wants.
    public init(
        mode: TrackingMode, slotCount: Int = 20, mergeRadius: Double = 25, maxRecordAccuracy: Double = 200,
        maxSpeed: Double = 90, uploadThreshold: Int = 50, minimumFlushInterval: TimeInterval? = nil,
        oneShotAccuracy: LocationAccuracy = .best,
        minimumRefreshRadius: Double = 150, maximumRefreshRadius: Double = 5000, regionCushion: RegionCushion = .iOS
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
        self.regionCushion = regionCushion
    }

    /// The seconds between two coalesced uploads in force: ``minimumFlushInterval``, else the mode's.
    public var flushInterval: TimeInterval { minimumFlushInterval ?? mode.uploadInterval }

    /// The upload intervals an app or a policy may set: none up to a day (NaN and infinities are
    /// outside).
    public static let uploadIntervals: ClosedRange<TimeInterval> = 0...86_400

    /// What is wrong with `seconds` as an upload interval, and what to give instead, for an error
    /// that names the input it came from; `nil` when it is one of ``uploadIntervals``.
    public static func uploadIntervalProblem(_ seconds: TimeInterval) -> String? {
        guard !uploadIntervals.contains(seconds) else { return nil }
        return "\(seconds) is not a number of seconds from \(Int(uploadIntervals.lowerBound)) to \(Int(uploadIntervals.upperBound)) "
            + "(a day); 1800 is half an hour"
    }

    private enum CodingKeys: String, CodingKey {
        case mode, slotCount, mergeRadius, maxRecordAccuracy, maxSpeed, uploadThreshold, minimumFlushInterval
        case oneShotAccuracy, minimumRefreshRadius, maximumRefreshRadius, regionCushion
    }

    /// Decodes a configuration; one saved before the region cushion existed gets iOS's, and one
    /// without a flush interval takes the mode's.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            mode: try c.decode(TrackingMode.self, forKey: .mode), slotCount: try c.decode(Int.self, forKey: .slotCount),
            mergeRadius: try c.decode(Double.self, forKey: .mergeRadius),
            maxRecordAccuracy: try c.decode(Double.self, forKey: .maxRecordAccuracy),
            maxSpeed: try c.decode(Double.self, forKey: .maxSpeed), uploadThreshold: try c.decode(Int.self, forKey: .uploadThreshold),
            minimumFlushInterval: try c.decodeIfPresent(TimeInterval.self, forKey: .minimumFlushInterval),
            oneShotAccuracy: try c.decode(LocationAccuracy.self, forKey: .oneShotAccuracy),
            minimumRefreshRadius: try c.decode(Double.self, forKey: .minimumRefreshRadius),
            maximumRefreshRadius: try c.decode(Double.self, forKey: .maximumRefreshRadius),
            regionCushion: try c.decodeIfPresent(RegionCushion.self, forKey: .regionCushion) ?? .iOS)
    }
}
