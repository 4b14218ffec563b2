import Foundation

/// What the Tracker asks its shell to do. The shell performs effects in order.
public enum TrackerEffect: Sendable, Equatable {
    /// Configure the platform location service.
    case configureLocation(LocationRequest)
    /// Ask the platform for one fix at the given accuracy (CoreLocation `requestLocation`).
    case requestOneShot(LocationAccuracy)
    /// Monitor exactly this set of OS regions (the planned slots), replacing the previous set.
    case monitor([MonitoredRegion])
    /// Append a fix to the store as a new record.
    case record(RecordedFix)
    /// The stay at the last record lasts `dwell` seconds, until `lastSeen`: a fix showed the device
    /// left then, or it is still there (written before an upload and when tracking stops).
    case extendDwell(dwell: TimeInterval, lastSeen: Date)
    /// Report a region transition.
    case emit(RegionEvent)
    /// Remember these regions' states (what a relaunched app restores); each is written with the
    /// events of the same input.
    case saveRegionStates([RegionStateRecord])
    /// Forget every region's state: tracking stopped, so what happens meanwhile is not known.
    case forgetRegionStates
    /// Send pending records now.
    case flushUploads(FlushReason)
}

/// How accurate a location request should be; picks the source on iOS (and in the simulator).
public enum LocationAccuracy: String, Sendable, Codable, CaseIterable, Comparable {
    /// Best available (GPS).
    case best
    /// Within about ten metres (GPS).
    case tenMeters
    /// Within about a hundred metres (Wi-Fi).
    case hundredMeters
    /// Within about a kilometre (cell).
    case kilometer
    /// Within about three kilometres (cell).
    case threeKilometers

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    /// Finer accuracies sort first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// The location service configuration the Tracker wants.
public struct LocationRequest: Sendable, Equatable {
    /// Standard (continuous) updates, or `nil` for off.
    public var standard: StandardUpdates?
    /// Significant-location-change monitoring on or off.
    public var significantChange: Bool
    /// Visit monitoring (arrivals at and departures from places where the device stays) on or off.
    public var visits: Bool
    /// Motion-activity updates (still, walking, cycling, in a vehicle) on or off.
    public var motionActivity: Bool

    /// Creates a request.
    public init(standard: StandardUpdates?, significantChange: Bool, visits: Bool = false, motionActivity: Bool = false) {
        self.standard = standard
        self.significantChange = significantChange
        self.visits = visits
        self.motionActivity = motionActivity
    }

    /// Everything off.
    public static let off = LocationRequest(standard: nil, significantChange: false)
}

/// Continuous location updates.
public struct StandardUpdates: Sendable, Equatable {
    /// The requested accuracy.
    public var accuracy: LocationAccuracy
    /// Minimum movement in metres between delivered fixes; `nil` delivers every fix.
    public var distanceFilter: Double?

    /// Creates a configuration.
    public init(accuracy: LocationAccuracy, distanceFilter: Double?) {
        self.accuracy = accuracy
        self.distanceFilter = distanceFilter
    }
}

/// A region handed to the OS for monitoring.
public struct MonitoredRegion: Sendable, Equatable, Hashable {
    /// The identifier the OS will report crossings with.
    public let id: String
    /// Centre of the circle.
    public let center: Coordinate
    /// Radius in metres.
    public let radius: Double

    /// Creates a monitored region.
    public init(id: String, center: Coordinate, radius: Double) {
        self.id = id
        self.center = center
        self.radius = radius
    }

    /// The identifier of the refresh region around the device.
    public static let refreshRegionID = "whereabouts.refresh"
}

/// Why a fix was recorded.
public enum RecordTrigger: String, Sendable, Codable {
    /// The mode's policy decided to record it.
    case policy
    /// A region event happened.
    case region
    /// The app asked for a fix.
    case request
}

/// A fix to be stored.
public struct RecordedFix: Sendable, Equatable {
    /// The fix.
    public let fix: Fix
    /// Why it is recorded.
    public let trigger: RecordTrigger

    /// Creates a record.
    public init(fix: Fix, trigger: RecordTrigger) {
        self.fix = fix
        self.trigger = trigger
    }
}

/// Why an upload flush was requested.
public enum FlushReason: String, Sendable, Codable {
    /// Enough records are pending.
    case threshold
    /// A region event happened.
    case regionEvent
    /// The device stopped or started moving.
    case motionChange
    /// The app came to the foreground.
    case foreground
    /// Tracking stopped.
    case stopped
}
