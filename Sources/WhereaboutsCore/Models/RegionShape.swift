import Foundation

/// The exact outline of a region.
public enum RegionShape: Sendable, Hashable, Codable {
    /// The circle given by the region's centre and radius.
    case circle
    /// One or more polygons (a GeoJSON Polygon or MultiPolygon).
    case polygons(PolygonSet)
}
