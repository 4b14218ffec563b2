import Foundation

/// Reads regions from a GeoJSON FeatureCollection of Point features.
///
/// Each feature needs `geometry.coordinates` `[longitude, latitude]`, `properties.id` (a string, or a
/// number taken as its text; the feature's own `id` is used when properties have none) and
/// `properties.radius` in metres (> 0). Optional: `notifyOnEntry`, `notifyOnExit` (booleans) and
/// `loiteringDelay` (seconds). A duplicate id is an error naming both features: silently keeping one
/// would hide a mistake in the file.
public enum GeoJSONRegionReader {
    /// Parses `data`; `sourceName` names the input in errors.
    /// - Throws: ``FormatError`` naming the feature, the problem and the fix.
    public static func regions(from data: Data, sourceName: String) throws(FormatError) -> [Region] {
        func fail(_ location: String, _ problem: String, _ fix: String) -> FormatError {
            FormatError(source: sourceName, location: location, problem: problem, fix: fix)
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw fail("", "is not valid JSON (\(error.localizedDescription))", "give a GeoJSON FeatureCollection")
        }
        guard let collection = root as? [String: Any], collection["type"] as? String == "FeatureCollection",
            let features = collection["features"] as? [Any]
        else {
            throw fail("", "is not a GeoJSON FeatureCollection with a features array", "give {\"type\":\"FeatureCollection\",\"features\":[…]}")
        }
        var regions: [Region] = []
        var firstIndex: [String: Int] = [:]
        for (index, item) in features.enumerated() {
            var location = "feature \(index)"
            guard let feature = item as? [String: Any] else { throw fail(location, "is not an object", "give a GeoJSON Feature") }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            guard let id = identifier(properties["id"]) ?? identifier(feature["id"]) else {
                throw fail(location, "has no properties.id", "give every region a string id")
            }
            location += " (id \"\(id)\")"
            guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String else {
                throw fail(location, "has no geometry", "give a Point geometry with [longitude, latitude]")
            }
            guard type == "Point" else {
                throw fail(location, "has a \(type) geometry; only Point regions are supported", "give the region as a Point with properties.radius")
            }
            guard let pair = geometry["coordinates"] as? [Any], pair.count >= 2,
                let lon = (pair[0] as? NSNumber)?.doubleValue, let lat = (pair[1] as? NSNumber)?.doubleValue
            else {
                throw fail(location, "has no [longitude, latitude] coordinates", "give coordinates as two numbers, longitude first")
            }
            guard let radius = (properties["radius"] as? NSNumber)?.doubleValue else {
                throw fail(location, "has no numeric properties.radius", "give the radius in metres")
            }
            let delay = (properties["loiteringDelay"] as? NSNumber)?.doubleValue
            do {
                let region = try Region(
                    id: id, center: Coordinate(latitude: lat, longitude: lon), radius: radius,
                    notifyOnEntry: properties["notifyOnEntry"] as? Bool ?? true,
                    notifyOnExit: properties["notifyOnExit"] as? Bool ?? true, loiteringDelay: delay)
                if let earlier = firstIndex[id] {
                    throw fail(location, "repeats the id of feature \(earlier)", "give every region a unique id")
                }
                firstIndex[id] = index
                regions.append(region)
            } catch let error as ValidationError {
                throw fail(location, "\(error.field) \(error.value) \(error.problem)", error.fix)
            } catch let error as FormatError {
                throw error
            } catch {
                throw fail(location, "\(error)", "fix the feature")
            }
        }
        return regions
    }

    private static func identifier(_ value: Any?) -> String? {
        if let text = value as? String, !text.isEmpty { return text }
        if let number = value as? NSNumber { return number.stringValue }
        return nil
    }
}
