import Foundation

/// A region's state as the store keeps it and a relaunched app restores it.
public struct RegionStateRecord: Sendable, Hashable, Codable {
    /// Creates a record; `dwelt` counts only inside.
    public init(regionID: String, inside: Bool, since: Date, dwelt: Bool) {
        (self.regionID, self.inside, self.since, self.dwelt) = (regionID, inside, since, dwelt && inside)
    }

    /// The region's id.
    public let regionID: String
    /// Whether the device is inside.
    public let inside: Bool
    /// When the device entered (inside), or when it was judged outside.
    public let since: Date
    /// Whether the dwell event of the current stay was reported (always `false` outside).
    public let dwelt: Bool
}
