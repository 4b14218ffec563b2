import Foundation
import Testing

@testable import WhereaboutsCore

// Builders shared by the core tests: coordinates, fixes and regions at chosen places and times, a
// seeded generator, brute-force references and readers for Tracker effects.

/// The instant every test timeline starts at (2023-11-14T22:13:20Z); `time(s)` is `s` seconds later.
let timeOrigin: TimeInterval = 1_700_000_000

/// The date `seconds` after ``timeOrigin``.
func time(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: timeOrigin + seconds) }

/// A date from raw Unix epoch seconds.
func epoch(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

/// A coordinate the test knows to be valid.
func coord(_ latitude: Double, _ longitude: Double) -> Coordinate {
    do {
        return try Coordinate(latitude: latitude, longitude: longitude)
    } catch {
        fatalError("test coordinate \(latitude), \(longitude) is invalid: \(error)")
    }
}

/// A central-European home position most tests happen around.
let home = coord(47.3769, 8.5417)

/// The point `metres` from `origin` along `bearing` degrees (90 = east).
func point(_ origin: Coordinate, metres: Double, bearing: Double = 90) -> Coordinate {
    Geodesy.destination(from: origin, distance: metres, bearing: bearing)
}

/// A point `x` metres east (negative: west) of `origin`.
func east(of origin: Coordinate, _ x: Double) -> Coordinate {
    x >= 0 ? point(origin, metres: x, bearing: 90) : point(origin, metres: -x, bearing: 270)
}

/// A fix at `coordinate` with `acc` metres of accuracy, `t` seconds after ``timeOrigin``.
func fix(
    _ coordinate: Coordinate, acc: Double = 5, t: TimeInterval, speed: Double? = nil,
    source: FixSource = .gps
) -> Fix {
    do {
        return try Fix(
            coordinate: coordinate, horizontalAccuracy: acc, speed: speed, timestamp: time(t), source: source)
    } catch {
        fatalError("test fix is invalid: \(error)")
    }
}

/// A fix at latitude/longitude with `acc` metres of accuracy, `t` seconds after ``timeOrigin``.
func fix(lat: Double, lon: Double, acc: Double = 5, t: TimeInterval, speed: Double? = nil) -> Fix {
    fix(coord(lat, lon), acc: acc, t: t, speed: speed)
}

/// A region the test knows to be valid. An id a new region may not have (a control character,
/// the engine's prefix) is taken as a region stored before that rule, which still loads: the
/// geofence must order and judge those too.
func region(
    _ id: String, _ center: Coordinate, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
    loiteringDelay: TimeInterval? = nil
) -> Region {
    do {
        return try Region(
            id: id, center: center, radius: radius, notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit,
            loiteringDelay: loiteringDelay)
    } catch {
        let stored = try? JSONDecoder().decode(
            Region.self,
            from: JSONEncoder().encode(
                StoredRegion(
                    id: id, center: center, radius: radius, notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit,
                    loiteringDelay: loiteringDelay)))
        guard let stored else { fatalError("test region \(id) is invalid: \(error)") }
        return stored
    }
}

/// A region as the store keeps it, for ``region(_:_:radius:notifyOnEntry:notifyOnExit:loiteringDelay:)``.
private struct StoredRegion: Encodable {
    let id: String
    let center: Coordinate
    let radius: Double
    let notifyOnEntry: Bool
    let notifyOnExit: Bool
    let loiteringDelay: TimeInterval?
}

/// Runs `body` and returns the validation error it throws, or `nil` when it succeeds.
func validationError<T>(_ body: () throws(ValidationError) -> T) -> ValidationError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

extension SeededGenerator {
    /// A uniformly random coordinate in the latitude/longitude box, longitudes wrapped into −180…180.
    mutating func coordinate(latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>) -> Coordinate {
        let lat = Double.random(in: latitudes, using: &self)
        let lon = Double.random(in: longitudes, using: &self)
        return Coordinate(normalizingLatitude: lat, longitude: lon)
    }

    /// `count` regions with ids `r0000…`, centres in the box and radii in `radii`.
    mutating func regions(
        _ count: Int, latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>, radii: ClosedRange<Double>
    ) -> [Region] {
        (0..<count).map { i in
            let center = coordinate(latitudes: latitudes, longitudes: longitudes)
            let radius = Double.random(in: radii, using: &self)
            return region(String(format: "r%04d", i), center, radius: radius)
        }
    }
}

/// The ids of `regions` whose circle comes within `margin` metres of `point`, by exhaustive search.
func bruteForceWithin(_ regions: [Region], of point: Coordinate, margin: Double) -> Set<String> {
    Set(regions.filter { Geodesy.distance(point, $0.center) - $0.radius <= margin }.map(\.id))
}

/// The `limit` regions whose boundary (a circle's or a polygon's own outline) is nearest to `point`,
/// by exhaustive search, ordered like
/// ``RegionIndex/nearestBoundaries(to:limit:)`` (distance, then id).
func bruteForceNearest(_ regions: [Region], to point: Coordinate, limit: Int) -> [(id: String, distance: Double)] {
    var all: [(id: String, distance: Double)] = []
    for r in regions {
        let d: Double = abs(r.signedDistance(from: point))
        all.append((id: r.id, distance: d))
    }
    all.sort { a, b in a.distance != b.distance ? a.distance < b.distance : a.id < b.id }
    return Array(all.prefix(limit))
}

/// The angle in degrees between two bearings, 0…180.
func angularDifference(_ a: Double, _ b: Double) -> Double {
    let d = abs(a - b).truncatingRemainder(dividingBy: 360)
    return min(d, 360 - d)
}

// MARK: - Reading Tracker effects

extension Array where Element == TrackerEffect {
    /// Every location configuration, in order.
    var locationRequests: [LocationRequest] {
        compactMap { effect -> LocationRequest? in
            if case .configureLocation(let r) = effect { return r }
            return nil
        }
    }

    /// Every one-shot request's accuracy, in order.
    var oneShots: [LocationAccuracy] {
        compactMap { effect -> LocationAccuracy? in
            if case .requestOneShot(let a) = effect { return a }
            return nil
        }
    }

    /// Every set of regions handed to the OS, in order.
    var monitors: [[MonitoredRegion]] {
        compactMap { effect -> [MonitoredRegion]? in
            if case .monitor(let m) = effect { return m }
            return nil
        }
    }

    /// Every new record, in order.
    var records: [TrackerEffect] {
        filter { effect in
            if case .record = effect { return true }
            return false
        }
    }

    /// Why each new record was recorded, in order.
    var recordTriggers: [RecordTrigger] {
        compactMap { effect -> RecordTrigger? in
            if case .record(_, let trigger) = effect { return trigger }
            return nil
        }
    }

    /// Every dwell extension of the last record, in order.
    var dwellExtensions: [(dwell: TimeInterval, lastSeen: Date)] {
        compactMap { effect -> (dwell: TimeInterval, lastSeen: Date)? in
            if case .extendDwell(let d, let s) = effect { return (d, s) }
            return nil
        }
    }

    /// Every region event, in order.
    var events: [RegionEvent] {
        compactMap { effect -> RegionEvent? in
            if case .emit(let e) = effect { return e }
            return nil
        }
    }

    /// Every upload flush reason, in order.
    var flushes: [FlushReason] {
        compactMap { effect -> FlushReason? in
            if case .flushUploads(let f) = effect { return f }
            return nil
        }
    }
}

/// Standard updates at `accuracy` with `filter`, significant change off.
func standard(_ accuracy: LocationAccuracy, filter: Double? = nil) -> LocationRequest {
    LocationRequest(standard: StandardUpdates(accuracy: accuracy, distanceFilter: filter), significantChange: false)
}

/// Standard updates off, significant-location-change monitoring on.
let significantOnly = LocationRequest(standard: nil, significantChange: true)

/// A tracker in `mode`, watching `regions`, already started at `time(0)`; `startEffects` are what the
/// start returned.
func startedTracker(
    _ mode: TrackingMode, regions: [Region] = [], configure: (inout TrackerConfiguration) -> Void = { _ in }
) -> (tracker: Tracker, startEffects: [TrackerEffect]) {
    var configuration = TrackerConfiguration(mode: mode)
    configure(&configuration)
    var tracker = Tracker(configuration: configuration, regions: regions)
    let effects = tracker.handle(.command(.start), now: time(0))
    return (tracker, effects)
}

extension Tracker {
    /// Feeds `fix` at its own timestamp.
    mutating func feed(_ fix: Fix) -> [TrackerEffect] {
        handle(.fix(fix), now: fix.timestamp)
    }

    /// Wakes the tracker at `t` seconds after ``timeOrigin``: the timers due by then fire.
    mutating func wake(at t: TimeInterval) -> [TrackerEffect] {
        handle(.wake, now: time(t))
    }

    /// Sends `command` at `t` seconds after ``timeOrigin``.
    mutating func send(_ command: TrackerCommand, at t: TimeInterval) -> [TrackerEffect] {
        handle(.command(command), now: time(t))
    }

    /// Reports an OS crossing of `id` at `t` seconds after ``timeOrigin``.
    mutating func cross(_ id: String, _ state: RegionState, at t: TimeInterval) -> [TrackerEffect] {
        handle(.regionCrossing(id: id, state: state), now: time(t))
    }
}

/// The builders above in the shorter form some suites use (`F.fix(east: 100, at: 10)`), around an
/// origin in Munich.
enum TestFixtures {
    static let origin = coord(48.137, 11.575)

    static func date(_ seconds: Double) -> Date { time(seconds) }

    /// A point `metres` from `from` towards `bearing` degrees.
    static func point(_ metres: Double, bearing: Double = 90, from: Coordinate = origin) -> Coordinate {
        WhereaboutsCoreTests.point(from, metres: metres, bearing: bearing)
    }

    static func fix(_ coordinate: Coordinate, accuracy: Double = 5, at seconds: Double, speed: Double? = nil) -> Fix {
        WhereaboutsCoreTests.fix(coordinate, acc: accuracy, t: seconds, speed: speed)
    }

    /// A fix `metres` east of the origin.
    static func fix(east metres: Double, accuracy: Double = 5, at seconds: Double) -> Fix {
        fix(point(metres), accuracy: accuracy, at: seconds)
    }

    static func region(_ id: String, at center: Coordinate = origin, radius: Double = 200, loitering: Double? = nil) -> Region {
        WhereaboutsCoreTests.region(id, center, radius: radius, loiteringDelay: loitering)
    }
}
