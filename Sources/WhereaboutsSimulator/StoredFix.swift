import Foundation
import WhereaboutsCore

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
