import Foundation

/// Decides whether a fix is fit to be used at all.
public enum FixFilter {
    /// Seconds a fix may claim to be ahead of the clock (clock skew between sources).
    public static let futureTolerance: TimeInterval = 5

    /// Checks `fix`, arriving at `now`, against the last accepted fix.
    /// - Returns: `nil` to accept, or the reason to drop it.
    public static func rejection(of fix: Fix, after last: Fix?, now: Date, maxSpeed: Double) -> FixRejection? {
        if fix.timestamp.timeIntervalSince(now) > futureTolerance { return .fromTheFuture }
        guard let last else { return nil }
        let elapsed = fix.timestamp.timeIntervalSince(last.timestamp)
        if elapsed <= 0 { return .stale }
        let distance = Geodesy.distance(last.coordinate, fix.coordinate)
        let unexplained = distance - fix.horizontalAccuracy - last.horizontalAccuracy
        if unexplained > 0 && unexplained / elapsed > maxSpeed { return .impossibleSpeed }
        return nil
    }
}
