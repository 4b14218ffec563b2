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
    /// A record every `interval` seconds provided the device moved at least `displacement` metres while
    /// the app is in the background, and `foregroundDisplacement` metres while it is in the foreground
    /// (OwnTracks Android's interval plus displacement: 500 m in the background, "50 m or so" in the
    /// foreground). `nil` takes ``defaultForegroundDisplacement``, or `displacement` when that is smaller.
    case interval(interval: TimeInterval, displacement: Double, foregroundDisplacement: Double? = nil)
    /// Standard updates at the given accuracy, recording every fix that passes `distanceFilter` metres
    /// and lies beyond the merge radius of the last record (``TrackerConfiguration/mergeRadius``, grown
    /// by both fixes' accuracy); a fix within it extends that record.
    case continuous(accuracy: LocationAccuracy = .best, distanceFilter: Double? = nil)
    /// A moving/stationary state machine that turns positioning off while the device stands still.
    case adaptive(MotionPolicy = .adaptive)

    /// Interval mode's metres moved in the foreground when the mode names none: OwnTracks Android's 50 m.
    public static let defaultForegroundDisplacement: Double = 50

    /// The seconds between two coalesced uploads of every mode but a policy that ships its own: half
    /// an hour, as each upload costs about 12 J of radio whatever its size.
    public static let standardUploadInterval: TimeInterval = 1800

    /// The seconds between two coalesced uploads this mode ships with (``MotionPolicy/uploadInterval``
    /// for the adaptive family, else ``standardUploadInterval``), where
    /// ``TrackerConfiguration/minimumFlushInterval`` names none.
    public var uploadInterval: TimeInterval {
        if case .adaptive(let policy) = self { return policy.uploadInterval }
        return Self.standardUploadInterval
    }

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
