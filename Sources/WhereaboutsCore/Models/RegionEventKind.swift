import Foundation

/// What happened at a region.
public enum RegionEventKind: String, Sendable, Codable, CaseIterable {
    /// The device came inside the region.
    case enter
    /// The device left the region.
    case exit
    /// The device stayed inside for the region's loitering delay.
    case dwell
}
