import Foundation

/// Reads regions from a GeoJSON FeatureCollection, streaming: feed it the file in chunks and it
/// returns the regions of each feature as soon as the feature is complete, so a file of a million
/// regions never sits in memory whole.
///
/// A feature is a Point with `properties.radius` in metres (> 0), or a Polygon or MultiPolygon
/// (holes included; the radius is then the smallest enclosing circle's). Its id is `properties.id`
/// (a string, or a number taken as its text), else the feature's own `id`. Optional properties:
/// `notifyOnEntry`, `notifyOnExit` (booleans) and `loiteringDelay` (seconds). A duplicate id is an
/// error naming both features: silently keeping one would hide a mistake in the file.
public struct GeoJSONRegionReader {
    /// The name used in errors.
    public let sourceName: String
    private var stream = JSONArrayStream(key: "features")
    private var featureIndex = 0
    private var firstIndex: [String: Int] = [:]

    /// Creates a reader for the input called `sourceName`.
    public init(sourceName: String) { self.sourceName = sourceName }

    /// Parses `data` whole.
    /// - Throws: ``FormatError`` naming the feature, the problem and the fix.
    public static func regions(from data: Data, sourceName: String) throws(FormatError) -> [Region] {
        var reader = GeoJSONRegionReader(sourceName: sourceName)
        return try reader.feed(data) + reader.finish()
    }

    /// Parses more bytes and returns the regions of the features they completed.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(FormatError) -> [Region] {
        let elements: [[UInt8]]
        do {
            elements = try stream.feed(bytes)
        } catch {
            guard case .malformed(let offset, let problem) = error else { return [] }
            throw fail("byte \(offset)", "is not valid JSON: \(problem)", "give a GeoJSON FeatureCollection")
        }
        var regions: [Region] = []
        for element in elements {
            regions.append(try region(from: element, index: featureIndex))
            featureIndex += 1
        }
        return regions
    }

    /// Ends the input; throws when the document is incomplete or has no features array.
    public mutating func finish() throws(FormatError) -> [Region] {
        do {
            try stream.finish()
        } catch {
            guard case .malformed(let offset, let problem) = error else { return [] }
            throw fail("byte \(offset)", "is not valid JSON: \(problem)", "the file may be truncated: export it again")
        }
        guard stream.sawArray else {
            throw fail(
                "", "is not a GeoJSON FeatureCollection with a features array", "give {\"type\":\"FeatureCollection\",\"features\":[…]}")
        }
        return []
    }

    private func fail(_ location: String, _ problem: String, _ fix: String) -> FormatError {
        FormatError(source: sourceName, location: location, problem: problem, fix: fix)
    }

    private mutating func region(from bytes: [UInt8], index: Int) throws(FormatError) -> Region {
        var location = "feature \(index)"
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw fail(location, "is not valid JSON (\(error.localizedDescription))", "repair the feature")
        }
        guard let feature = object as? [String: Any] else { throw fail(location, "is not an object", "give a GeoJSON Feature") }
        let properties = feature["properties"] as? [String: Any] ?? [:]
        guard let id = Self.identifier(properties["id"]) ?? Self.identifier(feature["id"]) else {
            throw fail(location, "has no properties.id", "give every region a string id")
        }
        location += " (id \(String(reflecting: String(id.prefix(80))))\(id.count > 80 ? "…" : ""))"
        if let earlier = firstIndex[id] {
            throw fail(location, "repeats the id of feature \(earlier)", "give every region a unique id")
        }
        guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String else {
            throw fail(location, "has no geometry", "give a Point, Polygon or MultiPolygon geometry")
        }
        func flag(_ name: String) throws(FormatError) -> Bool {
            guard let value = properties[name] else { return true }
            guard let flag = value as? Bool else {
                throw fail(location, "has properties.\(name) \(Self.shown(value)), not true or false", "give true or false, unquoted")
            }
            return flag
        }
        let entry = try flag("notifyOnEntry")
        let exit = try flag("notifyOnExit")
        let delay: Double?
        switch properties["loiteringDelay"] {
        case nil, is NSNull: delay = nil
        case let number as NSNumber: delay = number.doubleValue
        case let other?:
            throw fail(location, "has properties.loiteringDelay \(Self.shown(other)), not a number", "give the delay in seconds, unquoted")
        }
        let region: Region
        do {
            // The limits a server holds regions to, so a file the engine takes is one the server takes.
            try WireLimits.checkRegionID(id, field: "properties.id")
            switch type {
            case "Point":
                guard let position = Self.position(geometry["coordinates"]) else {
                    throw fail(location, "has no [longitude, latitude] coordinates", "give coordinates as two numbers, longitude first")
                }
                guard let radius = (properties["radius"] as? NSNumber)?.doubleValue else {
                    throw fail(location, "has no numeric properties.radius", "give the radius in metres")
                }
                try WireLimits.check(radius, field: "properties.radius", in: WireLimits.radius, unit: "m", fix: "give the radius in metres")
                region = try Region(
                    id: id, center: Coordinate(latitude: position.lat, longitude: position.lon), radius: radius,
                    notifyOnEntry: entry, notifyOnExit: exit, loiteringDelay: delay)
            case "Polygon", "MultiPolygon":
                let raw = type == "Polygon" ? [geometry["coordinates"] as Any] : geometry["coordinates"] as? [Any] ?? []
                var polygons: [[[Coordinate]]] = []
                for polygon in raw {
                    guard let rings = polygon as? [Any], !rings.isEmpty else {
                        throw fail(location, "has an empty \(type)", "give each polygon an outer ring of [longitude, latitude] positions")
                    }
                    polygons.append(
                        try rings.map { ring throws(FormatError) -> [Coordinate] in
                            guard let positions = ring as? [Any] else {
                                throw fail(
                                    location, "has a ring that is not an array of positions",
                                    "give rings as arrays of [longitude, latitude]")
                            }
                            return try positions.map { item throws(FormatError) -> Coordinate in
                                guard let p = Self.position(item) else {
                                    throw fail(
                                        location, "has a position that is not [longitude, latitude]",
                                        "give positions as two numbers, longitude first")
                                }
                                do {
                                    return try Coordinate(latitude: p.lat, longitude: p.lon)
                                } catch let error as ValidationError {
                                    throw fail(location, "\(error.field) \(error.value) \(error.problem)", error.fix)
                                } catch {
                                    throw fail(location, "\(error)", "repair the position")
                                }
                            }
                        })
                }
                region = try Region(id: id, polygons: polygons, notifyOnEntry: entry, notifyOnExit: exit, loiteringDelay: delay)
            default:
                throw fail(location, "has a \(type) geometry", "give a Point with properties.radius, a Polygon or a MultiPolygon")
            }
        } catch let error as ValidationError {
            throw fail(location, "\(error.field) \(error.value) \(error.problem)", error.fix)
        } catch let error as FormatError {
            throw error
        } catch {
            throw fail(location, "\(error)", "repair the feature")
        }
        firstIndex[id] = index
        return region
    }

    private static func position(_ value: Any?) -> (lon: Double, lat: Double)? {
        guard let pair = value as? [Any], pair.count >= 2, let lon = (pair[0] as? NSNumber)?.doubleValue,
            let lat = (pair[1] as? NSNumber)?.doubleValue
        else { return nil }
        return (lon, lat)
    }

    /// `value` as a message shows it: a string quoted, anything else as it prints, cut at 40 characters.
    private static func shown(_ value: Any) -> String {
        let text = value is String ? String(reflecting: value as? String ?? "") : "\(value)"
        return text.count > 40 ? text.prefix(40) + "…" : text
    }

    private static func identifier(_ value: Any?) -> String? {
        if let text = value as? String, !text.isEmpty { return text }
        if let number = value as? NSNumber { return number.stringValue }
        return nil
    }
}
