import Foundation

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
