import Foundation

/// What the store keeps of a ``Session`` across app processes, read once when the app launches.
public struct SavedSession: Sendable, Equatable {
    /// The configuration, with the mode the app configured; `nil` on first launch.
    public var configuration: TrackerConfiguration?
    /// Whether tracking was on.
    public var trackingEnabled: Bool
    /// When the active tracking under way ends, if one was.
    public var activeTrackingEnd: Date?
    /// Every region.
    public var regions: [Region]
    /// The regions' last known states (only those judged since tracking last started).
    public var regionStates: [RegionStateRecord]
    /// The newest record.
    public var lastRecord: LocationRecord?
    /// The record whose stay ended (a fix showed the device left), if one did since.
    public var stayEnded: UUID?
    /// The permission records; `nil` on first launch.
    public var permissions: Permissions?
    /// Where uploads go and the credential, as the app last set them.
    public var uploads: UploadAccount
    /// The ids of the server commands carried out whose acknowledgement the server has not taken yet.
    public var unacknowledgedCommands: [String]

    /// Creates a saved session.
    public init(
        configuration: TrackerConfiguration? = nil, trackingEnabled: Bool = false, regions: [Region] = [],
        regionStates: [RegionStateRecord] = [], lastRecord: LocationRecord? = nil, permissions: Permissions? = nil,
        uploads: UploadAccount = UploadAccount(), unacknowledgedCommands: [String] = [], activeTrackingEnd: Date? = nil,
        stayEnded: UUID? = nil
    ) {
        self.configuration = configuration
        self.trackingEnabled = trackingEnabled
        self.activeTrackingEnd = activeTrackingEnd
        self.regions = regions
        self.regionStates = regionStates
        self.lastRecord = lastRecord
        self.stayEnded = stayEnded
        self.permissions = permissions
        self.uploads = uploads
        self.unacknowledgedCommands = unacknowledgedCommands
    }

    /// A first launch: nothing saved.
    public static let empty = SavedSession()
}
