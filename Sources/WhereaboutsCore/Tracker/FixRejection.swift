import Foundation

/// Why the Tracker refused a fix.
public enum FixRejection: String, Sendable, Codable, CaseIterable {
    /// The fix claims a time later than the moment it arrived.
    case fromTheFuture
    /// The fix is not newer than the last accepted one.
    case stale
    /// Reaching the fix from the last accepted one needs an impossible speed, even allowing for both accuracies.
    case impossibleSpeed
}
