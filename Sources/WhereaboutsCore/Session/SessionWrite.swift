import Foundation

/// A session value the store keeps, so that a relaunched app restores it (``SavedSession``).
public enum SessionWrite: Sendable, Equatable {
    /// The configuration, with the mode the app configured (never active tracking's).
    case configuration(TrackerConfiguration)
    /// Whether tracking is on.
    case trackingEnabled(Bool)
    /// When active tracking ends (`nil`: none runs), so a relaunched app goes on with it.
    case activeTrackingEnd(Date?)
    /// The stay at record `UUID` ended: a relaunch restores that record without resuming its stay.
    case stayEnded(UUID)
    /// The permission records.
    case permissions(Permissions)
    /// Regions to store, replacing those with the same ids (their state is forgotten).
    case saveRegions([Region])
    /// Regions to remove by id.
    case removeRegions([String])
    /// Server commands carried out (or refused) by id: never carried out again, and acknowledged to
    /// the server with the next upload.
    case commandsApplied([String])
    /// Where uploads go (`nil` forgets it).
    case uploadSettings(UploadSettings?)
    /// The upload credential (`nil` signs out).
    case authTokens(AuthTokens?)
}
