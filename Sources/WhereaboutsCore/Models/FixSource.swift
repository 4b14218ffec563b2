import Foundation

/// Where a fix came from.
public enum FixSource: String, Sendable, Codable, CaseIterable {
    /// Satellite positioning.
    case gps
    /// Wi-Fi positioning.
    case wifi
    /// Cell-tower positioning.
    case cell
    /// A significant-location-change event.
    case significantChange
    /// The source is not known.
    case unknown
}
