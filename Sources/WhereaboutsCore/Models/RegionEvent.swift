import Foundation

/// A region transition reported by the engine.
public struct RegionEvent: Sendable, Hashable, Codable {
    /// The fix that caused the event; `nil` when the OS reported the crossing without a position.
    public let fix: Fix?
    /// The region's identifier.
    public let regionID: String
    /// Enter, exit or dwell.
    public let kind: RegionEventKind
    /// When the transition is judged to have happened.
    public let timestamp: Date
    /// `true` for the state found when monitoring started, rather than a transition seen happen.
    public let initial: Bool

    /// Creates an event.
    public init(regionID: String, kind: RegionEventKind, timestamp: Date, initial: Bool, fix: Fix?) {
        self.regionID = regionID
        self.kind = kind
        self.timestamp = timestamp
        self.initial = initial
        self.fix = fix
    }
}
