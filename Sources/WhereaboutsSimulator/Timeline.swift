import Foundation
import WhereaboutsCore

/// One record of a simulated run's energy timeline (`timeline.jsonl`, see `evaluation.md`).
public enum TimelineRecord: Sendable, Equatable {
    /// The GPS receiver changed state.
    case gps(t: Double, state: GPSState)
    /// One Wi-Fi positioning scan.
    case wifiScan(t: Double)
    /// One cell-based fix.
    case cellFix(t: Double)
    /// One upload request of `bytes` bytes.
    case upload(t: Double, bytes: Int)
    /// The app started running or was suspended.
    case app(t: Double, state: AppExecutionState)
    /// The OS woke the app for an event.
    case wake(t: Double)
    /// Motion sensing went on or off.
    case motion(t: Double, on: Bool)

    /// The GPS receiver's states.
    public enum GPSState: String, Sendable {
        case off, acquiring, tracking
    }

    /// Whether the app executes code.
    public enum AppExecutionState: String, Sendable {
        case running, suspended
    }

    /// When the record happened, epoch seconds.
    public var t: Double {
        switch self {
        case .gps(let t, _), .wifiScan(let t), .cellFix(let t), .upload(let t, _), .app(let t, _), .wake(let t),
            .motion(let t, _):
            t
        }
    }
}

/// The result of one simulated run, before scoring.
public struct SimulationRun: Sendable {
    /// The region events the engine reported, in order.
    public var events: [RegionEvent]
    /// The records the engine stored, after merging, with their dwell seconds.
    public var fixes: [StoredFix]
    /// The energy timeline, in time order.
    public var timeline: [TimelineRecord]

    /// Creates a run.
    public init(events: [RegionEvent], fixes: [StoredFix], timeline: [TimelineRecord]) {
        self.events = events
        self.fixes = fixes
        self.timeline = timeline
    }
}

/// A record as the store would keep it: the fix and how long the device stayed there.
public struct StoredFix: Sendable, Equatable {
    /// The recorded fix.
    public var fix: Fix
    /// Seconds the device stayed within the merge radius after the fix.
    public var dwell: Double

    /// Creates a stored fix.
    public init(fix: Fix, dwell: Double) {
        self.fix = fix
        self.dwell = dwell
    }
}
