import Foundation

/// The live updates the modern path (iOS 17 and later) runs for the engine's standard updates:
/// `CLLocationUpdate`'s live updates, and the distance filter the adapter applies to them. The sessions
/// held beside them (``LiveSessions``) outlive any one plan; ``LiveUpdatesTransition`` says what a
/// change of plan does.
///
/// Live updates take no accuracy and no distance filter, only a kind of activity, so they serve the
/// engine's fine requests (`best` and `tenMeters`: continuous tracking, active tracking, a watched stop)
/// and the adapter applies the distance filter itself (``DistanceFilter``). The engine's
/// coarse requests (`hundredMeters` and coarser, which let iOS keep GPS off) stay on
/// `CLLocationManager`, whose `desiredAccuracy` is what makes them cheap.
public struct LiveUpdatesPlan: Sendable, Equatable {
    /// The `CLLocationUpdate.LiveConfiguration` to ask for.
    public enum Kind: String, Sendable {
        /// `.default`.
        case standard
        /// `.otherNavigation`: the most precise positions, for `best`.
        case navigation
    }

    /// The live configuration.
    public let kind: Kind
    /// The distance filter the adapter applies, in metres; `nil` delivers every position.
    public let distanceFilter: Double?

    /// A plan with the given parts.
    public init(kind: Kind, distanceFilter: Double?) {
        self.kind = kind
        self.distanceFilter = distanceFilter
    }

    /// The plan for `configuration`, or `nil` when the classic path serves it (standard updates off, or
    /// coarser than ten metres).
    public init?(_ configuration: CoreLocationConfiguration) {
        guard configuration.standardUpdates, configuration.desiredAccuracy <= CoreLocationConstants.accuracyNearestTenMeters else {
            return nil
        }
        kind = configuration.desiredAccuracy <= CoreLocationConstants.accuracyBest ? .navigation : .standard
        distanceFilter = configuration.distanceFilter > 0 ? configuration.distanceFilter : nil
    }
}
