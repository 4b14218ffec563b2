import Foundation

/// What the phone's motion coprocessor says the device is doing (CoreMotion's `CMMotionActivity`):
/// a class, how sure it is, and since when.
public struct MotionActivity: Sendable, Hashable, Codable {
    /// The activity classes, slowest first.
    public enum Kind: String, Sendable, Codable, CaseIterable, Comparable {
        /// Not moving (below about 0.4 m/s).
        case stationary
        /// On foot (below about 2.5 m/s; running included).
        case walking
        /// On a bicycle (below about 7 m/s).
        case cycling
        /// In a vehicle.
        case automotive

        /// The fastest a device in this class plausibly moves, in metres per second: what a strategy
        /// assumes to know how soon a boundary can be reached.
        public var topSpeed: Double {
            switch self {
            case .stationary: 0.5
            case .walking: 2.5
            case .cycling: 8
            case .automotive: 40
            }
        }

        private var rank: Int { Self.allCases.firstIndex(of: self)! }
        /// Slower classes sort first.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
    }

    /// How sure the classifier is.
    public enum Confidence: String, Sendable, Codable, CaseIterable {
        case low, medium, high
    }

    /// The class.
    public let kind: Kind
    /// How sure the classifier is.
    public let confidence: Confidence
    /// When the device started doing it.
    public let start: Date

    /// Creates an activity.
    public init(kind: Kind, confidence: Confidence, start: Date) {
        self.kind = kind
        self.confidence = confidence
        self.start = start
    }
}

extension MotionActivity {
    /// Maps a CoreMotion `CMMotionActivity` onto an activity: the fastest class it names (running
    /// counts as walking), `nil` when it names none (unknown). `confidence` is
    /// `CMMotionActivityConfidence.rawValue` (0 low, 1 medium, 2 high; anything else counts as low).
    public static func fromCoreMotion(
        stationary: Bool, walking: Bool, running: Bool, cycling: Bool, automotive: Bool, confidence: Int, start: Date
    ) -> MotionActivity? {
        let kind: Kind
        if automotive {
            kind = .automotive
        } else if cycling {
            kind = .cycling
        } else if walking || running {
            kind = .walking
        } else if stationary {
            kind = .stationary
        } else {
            return nil
        }
        let level: Confidence = confidence == 2 ? .high : confidence == 1 ? .medium : .low
        return MotionActivity(kind: kind, confidence: level, start: start)
    }
}

extension MotionActivity {
    /// Of the reports an app woken from suspension finds in the motion history since it last ran
    /// (oldest first), those it hands the engine before the event that woke it: the latest run of
    /// sure reports of moving and every report after it, or the last report alone when none is a
    /// sure move. The run's first report says when the device last set off; an earlier move that
    /// ended in stillness (a walk about the house) would date the departure hours too early.
    public static func forwardedAtWake(_ reports: [MotionActivity]) -> ArraySlice<MotionActivity> {
        let isSure = { (report: MotionActivity) in report.confidence != .low }
        guard let lastMove = reports.lastIndex(where: { isSure($0) && $0.kind != .stationary }) else { return reports.suffix(1) }
        let stillBefore = reports[..<lastMove].lastIndex { isSure($0) && $0.kind == .stationary }
        return reports[(stillBefore.map { $0 + 1 } ?? reports.startIndex)...]
    }
}
