import Foundation

/// Writes circular regions as a GeoJSON FeatureCollection of Point features with `properties.id` and
/// `properties.radius` (metres), the shape ``GeoJSONRegionReader`` reads. The same regions give the
/// same bytes.
public enum GeoJSONWriter {
    /// One Point feature for the circle of `region` (a polygon region is written as its enclosing
    /// circle), with `kind` as a further property when given.
    public static func feature(_ region: Region, kind: String? = nil) -> String {
        var properties: [(String, JSONScalar)] = [("id", .string(region.id)), ("radius", .number(region.radius))]
        if let kind { properties.append(("kind", .string(kind))) }
        let coordinates = "[\(region.center.longitude),\(region.center.latitude)]"
        return #"{"type":"Feature","geometry":{"type":"Point","coordinates":"# + coordinates + #"},"properties":"#
            + JSONLine(properties).text + "}"
    }

    /// The opening of a FeatureCollection, for writing features piece by piece (separated by commas).
    public static let header = #"{"type":"FeatureCollection","features":["#
    /// The closing of a FeatureCollection.
    public static let footer = "]}\n"

    /// A whole FeatureCollection of `regions`, each with its kind when given.
    public static func document(_ regions: [(region: Region, kind: String?)]) -> String {
        header + regions.map { feature($0.region, kind: $0.kind) }.joined(separator: ",\n") + footer
    }
}
