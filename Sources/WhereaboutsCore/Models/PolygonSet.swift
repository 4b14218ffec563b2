import Foundation

/// Polygons with holes, as GeoJSON gives them: edges are straight lines in longitude/latitude, and a
/// polygon that crosses the antimeridian has its longitudes unwrapped to run continuously.
public struct PolygonSet: Sendable, Hashable, Codable {
    /// Each polygon's rings: the outer ring first, then its holes. Longitudes are unwrapped (they may
    /// run past ±180 so that no edge jumps across the antimeridian); rings are closed.
    public let polygons: [[[PlanarVertex]]]

    /// A vertex in unwrapped longitude/latitude degrees.
    public struct PlanarVertex: Sendable, Hashable, Codable {
        /// Longitude in degrees, possibly beyond ±180 after unwrapping.
        public let lon: Double
        /// Latitude in degrees.
        public let lat: Double
    }

    /// Validates and unwraps rings given as coordinates.
    /// - Throws: ``ValidationError`` for an empty set, a ring with fewer than three distinct positions
    ///   or no area (its corners on one line), or a ring reaching a pole; the error names the polygon
    ///   and ring (counted from 1) and the position at fault.
    public init(_ rings: [[[Coordinate]]]) throws(ValidationError) {
        guard !rings.isEmpty, rings.allSatisfy({ !$0.isEmpty }) else {
            throw ValidationError(
                field: "geometry", value: "[]", problem: "has no polygon rings",
                fix: "give at least one outer ring of three or more positions")
        }
        var polygons: [[[PlanarVertex]]] = []
        var reference: Double?
        for (polygonIndex, polygon) in rings.enumerated() {
            var unwrappedRings: [[PlanarVertex]] = []
            for (ringIndex, ring) in polygon.enumerated() {
                let field = "ring \(ringIndex + 1) of polygon \(polygonIndex + 1)"
                guard Set(ring).count >= 3 else {
                    throw ValidationError(
                        field: field, value: "\(ring.count) positions", problem: "has fewer than three distinct positions",
                        fix: "give each ring at least three distinct corners, closed by repeating the first")
                }
                if let polar = ring.first(where: { abs($0.latitude) >= 89.9 }) {
                    throw ValidationError(
                        field: field, value: "latitude \(polar.latitude)",
                        problem: "reaches a pole (89.9° or beyond), where longitude/latitude edges are undefined",
                        fix: "split the area or use a circle region")
                }
                var previous = reference ?? ring[0].longitude
                var vertices: [PlanarVertex] = []
                for point in ring {
                    var lon = point.longitude
                    while lon - previous > 180 { lon -= 360 }
                    while lon - previous < -180 { lon += 360 }
                    vertices.append(PlanarVertex(lon: lon, lat: point.latitude))
                    previous = lon
                }
                if reference == nil { reference = vertices[0].lon }
                if vertices.first != vertices.last { vertices.append(vertices[0]) }
                guard Self.area(of: vertices) >= 1 else {
                    throw ValidationError(
                        field: field, value: "\(ring.count) positions", problem: "encloses no area (its corners lie on one line)",
                        fix: "give the ring's corners around the area, not along a line")
                }
                unwrappedRings.append(vertices)
            }
            polygons.append(unwrappedRings)
        }
        self.polygons = polygons
    }

    /// The area a closed ring encloses, in square metres (the shoelace formula on a plane scaled at
    /// the ring's mean latitude: close enough to tell a ring from a line).
    private static func area(of ring: [PlanarVertex]) -> Double {
        let metresPerDegree = Geodesy.earthRadius * .pi / 180
        let scale = metresPerDegree * metresPerDegree * cos(ring.map(\.lat).reduce(0, +) / Double(ring.count) * .pi / 180)
        let origin = ring[0]
        let twice = zip(ring, ring.dropFirst()).reduce(0) { sum, edge in
            let (a, b) = ((edge.0.lon - origin.lon, edge.0.lat - origin.lat), (edge.1.lon - origin.lon, edge.1.lat - origin.lat))
            return sum + a.0 * b.1 - b.0 * a.1
        }
        return abs(twice) / 2 * scale
    }

    /// Every vertex as a coordinate (longitudes wrapped back into −180…180).
    public var vertices: [Coordinate] {
        polygons.flatMap { $0.flatMap { $0.map { Coordinate(normalizingLatitude: $0.lat, longitude: $0.lon) } } }
    }

    /// Signed distance in metres from `point` to the outline: negative inside, positive outside.
    /// Inside means inside some polygon's outer ring and none of its holes (even–odd rule per ring).
    public func signedDistance(from point: Coordinate) -> Double {
        let lon0 = polygons[0][0][0].lon
        var lon = point.longitude
        while lon - lon0 > 180 { lon -= 360 }
        while lon - lon0 < -180 { lon += 360 }
        let k = Geodesy.metresPerDegreeLatitude
        let cosLat = cos(point.latitude * .pi / 180)
        var nearest = Double.infinity
        var inside = false
        for polygon in polygons {
            var inThis = false
            for (ringIndex, ring) in polygon.enumerated() {
                var crossings = false
                for i in 0..<(ring.count - 1) {
                    let a = ring[i]
                    let b = ring[i + 1]
                    if (a.lat > point.latitude) != (b.lat > point.latitude) {
                        let x = a.lon + (point.latitude - a.lat) / (b.lat - a.lat) * (b.lon - a.lon)
                        if lon < x { crossings.toggle() }
                    }
                    let ax = (a.lon - lon) * cosLat * k
                    let ay = (a.lat - point.latitude) * k
                    let bx = (b.lon - lon) * cosLat * k
                    let by = (b.lat - point.latitude) * k
                    nearest = min(nearest, Self.distanceToSegment(ax, ay, bx, by))
                }
                if ringIndex == 0 { inThis = crossings } else if crossings { inThis = false }
            }
            if inThis { inside = true }
        }
        return inside ? -nearest : nearest
    }

    /// Distance from the origin to the segment (a, b) in the plane.
    private static func distanceToSegment(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let dx = bx - ax
        let dy = by - ay
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / length2)) : 0
        let x = ax + t * dx
        let y = ay + t * dy
        return (x * x + y * y).squareRoot()
    }
}
