import Foundation
import WhereaboutsCore

/// Runs the modern path's pieces (`AppleLiveUpdates.swift` on iOS 17 and later): the sessions and the
/// live updates. It only carries out ``WhereaboutsCore/LiveUpdatesTransition``'s steps, which
/// ``CoreLocationService`` hands it in order; what to keep, start and end is decided there.
@MainActor
public protocol LiveUpdatesRunning: AnyObject {
    /// Creates the sessions (``WhereaboutsCore/LiveSessions``) and holds them until ``invalidateSessions()``.
    func holdSessions(_ sessions: LiveSessions)
    /// Starts live updates for `plan`, handing each position its distance filter lets through to
    /// `deliver`. Live updates already running go on until the new ones deliver their first position.
    func startUpdates(_ plan: LiveUpdatesPlan, deliver: @escaping @MainActor (ReportedLocation) -> Void)
    /// Changes the distance filter applied to the running live updates, without restarting them.
    func setDistanceFilter(_ metres: Double?)
    /// Stops the live updates.
    func stopUpdates()
    /// Ends the sessions.
    func invalidateSessions()
}
