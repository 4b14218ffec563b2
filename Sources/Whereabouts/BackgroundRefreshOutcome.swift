import Foundation
import WhereaboutsCore

/// What one background refresh (the travel app's background task) did.
public enum BackgroundRefreshOutcome: Sendable, Equatable {
    /// Tracking is off: the run exited at once.
    case trackingDisabled
    /// The run asked for a fix (`nil` when none came before the deadline) and uploaded what it could.
    case ran(fix: Fix?, delivered: Int, stillPending: Int)
}
