/// Which side of a region boundary the device is on.
public enum RegionState: String, Sendable, Codable, Equatable {
    /// Inside the region.
    case inside
    /// Outside the region.
    case outside
}
