import Foundation

/// Polygons with holes, as GeoJSON gives them: edges are straight lines in longitude/latitude, and a
/// polygon that crosses the antimeridian has its longitudes unwrapped to run continuously.
public struct PolygonSet: Sendable, Hashable, Codable {
    /// Each polygon's rings: the outer ring first, then its holes. Longitudes are unwrapped (they may
    /// run past ±180 so that no edge jumps across the antimeridian); rings are closed.
    public var polygons: [[[PlanarVertex]]] { storage.polygons }
    /// The depth in metres of the deepest point inside the polygons (their *inradius*: the radius of
    /// the largest circle that fits inside one of them, clear of its holes), within 1 % (at least 5 cm)
    /// and never more than ``signedDistance(from:)`` finds somewhere inside. Computed once, when the
    /// set is built or decoded. The geofence rule sizes a polygon region's hysteresis band and
    /// accuracy margin by it (``Region/size``): no point lies deeper, so a band sized by the
    /// enclosing circle could leave a narrow polygon (a street, a platform) impossible to enter.
    public var inradius: Double { storage.inradius }

    /// The polygons and their inradius behind one reference, so that a ``Region`` (a million of them
    /// in an index) is no larger for holding a polygon set: the set fits the region's shape in one word.
    private final class Storage: Sendable {
        let polygons: [[[PlanarVertex]]]
        let inradius: Double

        init(_ polygons: [[[PlanarVertex]]], inradius: Double) {
            self.polygons = polygons
            self.inradius = inradius
        }
    }

    private let storage: Storage

    /// Sets are equal when their polygons are (the inradius follows from them).
    public static func == (a: PolygonSet, b: PolygonSet) -> Bool { a.storage === b.storage || a.polygons == b.polygons }

    public func hash(into hasher: inout Hasher) { hasher.combine(polygons) }

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
        storage = Storage(polygons, inradius: Self.deepestDepth(in: polygons))
    }

    private enum CodingKeys: String, CodingKey {
        case polygons
    }

    /// Decodes the polygons as stored, and computes their ``inradius`` again.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let polygons = try c.decode([[[PlanarVertex]]].self, forKey: .polygons)
        storage = Storage(polygons, inradius: Self.deepestDepth(in: polygons))
    }

    /// Encodes the polygons alone (``inradius`` follows from them).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(polygons, forKey: .polygons)
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
        let polygons = storage.polygons
        let lon0 = polygons[0][0][0].lon
        var lon = point.longitude
        while lon - lon0 > 180 { lon -= 360 }
        while lon - lon0 < -180 { lon += 360 }
        let k = Geodesy.metresPerDegreeLatitude
        let cosLat = cos(point.latitude * .pi / 180)
        return Self.signedDistanceFromOrigin(polygons) { ((($0.lon - lon) * cosLat * k), ($0.lat - point.latitude) * k) }
    }

    /// Signed distance from the origin of a plane to the outline of `polygons`, whose vertices
    /// `position` places in that plane (metres): negative inside some polygon's outer ring and none
    /// of its holes (even–odd rule per ring).
    private static func signedDistanceFromOrigin<Vertex>(
        _ polygons: [[[Vertex]]], _ position: (Vertex) -> (x: Double, y: Double)
    ) -> Double {
        var nearest = Double.infinity
        var inside = false
        for polygon in polygons {
            var inThis = false
            for (ringIndex, ring) in polygon.enumerated() {
                var crossings = false
                var a = position(ring[0])
                for vertex in ring.dropFirst() {
                    let b = position(vertex)
                    if (a.y > 0) != (b.y > 0), 0 < a.x - a.y / (b.y - a.y) * (b.x - a.x) { crossings.toggle() }
                    nearest = min(nearest, distanceToSegment(a.x, a.y, b.x, b.y))
                    a = b
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

    /// The depth of the deepest point inside `polygons` (see ``inradius``), found by a best-first
    /// search over square cells (the "pole of inaccessibility" search of Mapbox's polylabel): a cell
    /// is split while the depth at its centre plus its half-diagonal, the most any point in it can
    /// have, beats the best depth found by more than the precision: 1 % of that depth, and at least
    /// 5 cm. (A band sized by it is then within 1 % of the true one; the search costs about the
    /// length of the polygons' deepest ridge over the precision.) Distances are measured in a flat
    /// frame at the polygons' middle latitude; the depth of the deepest point found is then measured
    /// again by ``signedDistance(from:)``, so a fix there is as deep as the value says.
    private static func deepestDepth(in polygons: [[[PlanarVertex]]]) -> Double {
        guard !polygons.isEmpty, !polygons[0].isEmpty, !polygons[0][0].isEmpty else { return 0 }
        let outer = polygons.flatMap { $0.first ?? [] }
        let south = outer.map(\.lat).min()!
        let north = outer.map(\.lat).max()!
        let west = outer.map(\.lon).min()!
        let east = outer.map(\.lon).max()!
        let k = Geodesy.metresPerDegreeLatitude
        let xScale = k * cos((south + north) / 2 * .pi / 180)
        // Rings in metres east and north of the south-west corner.
        let rings = polygons.map { polygon in polygon.map { ring in ring.map { ((($0.lon - west) * xScale), ($0.lat - south) * k) } } }
        func depth(_ x: Double, _ y: Double) -> Double {
            -signedDistanceFromOrigin(rings) { ($0.0 - x, $0.1 - y) }
        }
        struct Cell {
            let x: Double
            let y: Double
            let half: Double
            let depth: Double
            var potential: Double { depth + half * 2.0.squareRoot() }
        }
        let width = (east - west) * xScale
        let height = (north - south) * k
        // Square cells as wide as the box is narrow, but at most 256 along it.
        let side = max(min(width, height), max(width, height) / 256)
        guard side > 0 else { return 0 }
        var queue = CellHeap()
        var best = Cell(x: width / 2, y: height / 2, half: 0, depth: depth(width / 2, height / 2))
        var y = 0.0
        while y < height {
            var x = 0.0
            while x < width {
                let cell = Cell(x: x + side / 2, y: y + side / 2, half: side / 2, depth: depth(x + side / 2, y + side / 2))
                queue.push(cell.potential, (cell.x, cell.y, cell.half, cell.depth))
                x += side
            }
            y += side
        }
        func precision() -> Double { max(0.05, 0.01 * best.depth) }
        // Bounds the work for polygons of very many vertices; the depth found by then is a lower bound.
        var evaluations = 0
        while let (potential, (x, y, half, d)) = queue.pop(), evaluations < 10_000 {
            if d > best.depth { best = Cell(x: x, y: y, half: half, depth: d) }
            guard potential - best.depth > precision() else { break }
            let quarter = half / 2
            for (dx, dy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
                let cx = x + dx * quarter
                let cy = y + dy * quarter
                let cell = Cell(x: cx, y: cy, half: quarter, depth: depth(cx, cy))
                evaluations += 1
                if cell.potential - best.depth > precision() { queue.push(cell.potential, (cell.x, cell.y, cell.half, cell.depth)) }
                if cell.depth > best.depth { best = cell }
            }
        }
        guard best.depth > 0 else { return 0 }
        let deepest = Coordinate(normalizingLatitude: south + best.y / k, longitude: west + best.x / xScale)
        return max(0, -PolygonSet(trusted: polygons).signedDistance(from: deepest))
    }

    /// A set of polygons already validated, without its ``inradius`` (which is being computed).
    private init(trusted polygons: [[[PlanarVertex]]]) {
        storage = Storage(polygons, inradius: 0)
    }
}

/// A max-heap of cells by their potential depth, for ``PolygonSet``'s deepest-point search.
private struct CellHeap {
    private var items: [(key: Double, cell: (Double, Double, Double, Double))] = []

    mutating func push(_ key: Double, _ cell: (Double, Double, Double, Double)) {
        items.append((key, cell))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[parent].key < items[i].key else { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    mutating func pop() -> (Double, (Double, Double, Double, Double))? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let left = 2 * i + 1
            let right = left + 1
            var largest = i
            if left < items.count && items[left].key > items[largest].key { largest = left }
            if right < items.count && items[right].key > items[largest].key { largest = right }
            guard largest != i else { break }
            items.swapAt(i, largest)
            i = largest
        }
        return (top.key, top.cell)
    }
}
