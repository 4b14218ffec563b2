import Foundation

/// How the Tracker decides when to take and record positions. Regions are watched in every mode.
public enum TrackingMode: Sendable, Equatable, Hashable, Codable {
    /// No automatic positions; only ``TrackerCommand/requestFix`` records one.
    case manual
    /// Significant-location-change monitoring: a record after at least 500 m and 5 min.
    case significant
    /// Standard GPS updates; a record every `distance` metres or every `interval` seconds, whichever
    /// comes first (OwnTracks iOS move mode, defaults 100 m / 300 s).
    case move(distance: Double = 100, interval: TimeInterval = 300)
    /// A record every `interval` seconds provided the device moved at least `displacement` metres
    /// (Android's interval plus displacement).
    case interval(interval: TimeInterval, displacement: Double)
    /// Standard updates at the given accuracy, recording every fix that passes `distanceFilter` metres.
    case continuous(accuracy: LocationAccuracy = .best, distanceFilter: Double? = nil)
    /// A moving/stationary state machine that turns positioning off while the device stands still.
    case adaptive(MotionPolicy = .adaptive)

    /// The mode's name as used on the command line and in stored settings.
    public var name: String {
        switch self {
        case .manual: "manual"
        case .significant: "significant"
        case .move: "move"
        case .interval: "interval"
        case .continuous: "continuous"
        case .adaptive(let policy): policy.name
        }
    }
}

/// The parameters of the stop-detecting modes: how stillness is judged, what runs while moving and
/// what wakes the device while stationary.
public struct MotionPolicy: Sendable, Equatable, Hashable, Codable {
    /// A name for reports.
    public var name: String
    /// The device counts as still while every fix stays within this many metres of an anchor.
    public var stopRadius: Double
    /// Seconds of stillness before positioning is turned off.
    public var stopTimeout: TimeInterval
    /// Radius in metres of the stationary fence left around the device when it stops.
    public var stationaryRadius: Double
    /// Accuracy requested while moving and far from any region boundary.
    public var movingAccuracy: LocationAccuracy
    /// Accuracy requested while a region boundary is near enough to matter (a fix left a region
    /// undecided that a finer fix would have changed); `nil` never raises it.
    public var nearBoundaryAccuracy: LocationAccuracy?
    /// Seconds accuracy stays raised after the last fix that called for it.
    public var raisedAccuracyHold: TimeInterval
    /// Base distance filter in metres while moving.
    public var distanceFilter: Double
    /// Multiplier of the elastic distance filter: filter = max(base, speed rounded to 5 m/s × multiplier).
    /// Zero turns elasticity off.
    public var elasticityMultiplier: Double
    /// Whether significant-location-change monitoring wakes the device while stationary.
    public var significantChangeWhileStationary: Bool

    /// Creates a policy.
    public init(
        name: String, stopRadius: Double, stopTimeout: TimeInterval, stationaryRadius: Double,
        movingAccuracy: LocationAccuracy, nearBoundaryAccuracy: LocationAccuracy?,
        raisedAccuracyHold: TimeInterval, distanceFilter: Double,
        elasticityMultiplier: Double, significantChangeWhileStationary: Bool
    ) {
        self.name = name
        self.stopRadius = stopRadius
        self.stopTimeout = stopTimeout
        self.stationaryRadius = stationaryRadius
        self.movingAccuracy = movingAccuracy
        self.nearBoundaryAccuracy = nearBoundaryAccuracy
        self.raisedAccuracyHold = raisedAccuracyHold
        self.distanceFilter = distanceFilter
        self.elasticityMultiplier = elasticityMultiplier
        self.significantChangeWhileStationary = significantChangeWhileStationary
    }

    /// Whereabouts' flagship: Wi-Fi-grade positions while moving, GPS only near a boundary that a
    /// Wi-Fi fix cannot judge, everything off when still, woken by the stationary fence or a
    /// significant change.
    public static let adaptive = MotionPolicy(
        name: "adaptive", stopRadius: 80, stopTimeout: 150, stationaryRadius: 150,
        movingAccuracy: .hundredMeters, nearBoundaryAccuracy: .best, raisedAccuracyHold: 8, distanceFilter: 20, elasticityMultiplier: 2,
        significantChangeWhileStationary: true)

    /// The commercial SDK's state machine as documented: best accuracy with a 10 m elastic filter
    /// while moving, stationary after 5 minutes still, a 200 m stationary geofence.
    public static let stopDetect = MotionPolicy(
        name: "stop-detect", stopRadius: 25, stopTimeout: 300, stationaryRadius: 200,
        movingAccuracy: .best, nearBoundaryAccuracy: nil, raisedAccuracyHold: 0,
        distanceFilter: 10, elasticityMultiplier: 1, significantChangeWhileStationary: false)
}
