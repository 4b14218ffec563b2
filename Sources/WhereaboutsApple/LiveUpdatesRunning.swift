import Foundation
import WhereaboutsCore

/// Runs ``WhereaboutsCore/LiveUpdatesPlan``s (`AppleLiveUpdates.swift` on iOS 17 and later).
@MainActor
public protocol LiveUpdatesRunning: AnyObject {
    /// Runs `plan` in place of the running one (`nil` stops everything), handing each position to `deliver`.
    func run(_ plan: LiveUpdatesPlan?, deliver: @escaping @MainActor (ReportedLocation) -> Void)
}
