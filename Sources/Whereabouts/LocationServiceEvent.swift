import Foundation
import WhereaboutsCore

/// What a platform location service reports to the engine.
public enum LocationServiceEvent: Sendable, Equatable {
    /// A position.
    case fix(Fix)
    /// A visit: the device arrived at a place where it stays, or left it.
    case visit(Visit)
    /// The motion coprocessor's latest activity.
    case activity(MotionActivity)
    /// The platform saw the device cross a monitored region's boundary (or found its state when
    /// monitoring started).
    case regionCrossing(id: String, state: RegionState)
    /// The platform's location authorization changed (also sent once when the service starts).
    case authorizationChanged(PlatformAuthorization)
    /// Something went wrong that the engine should log and show; the service keeps trying on its own.
    case failure(LocationServiceFailure)
    /// The platform could not monitor a region it was handed (`id` `nil`: one it did not name), for
    /// the reason `failure` gives: the engine logs it as a ``failure(_:)`` and judges that region on
    /// fixes until the regions are handed again.
    case regionMonitoringFailed(id: String?, LocationServiceFailure)
}
