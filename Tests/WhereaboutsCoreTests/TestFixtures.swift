import Foundation
import WhereaboutsCore

/// Builders for test inputs at chosen places and times.
enum TestFixtures {
    static let origin = try! Coordinate(latitude: 48.137, longitude: 11.575)

    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }

    /// A point `metres` from `from` towards `bearing` degrees.
    static func point(_ metres: Double, bearing: Double = 90, from: Coordinate = origin) -> Coordinate {
        Geodesy.destination(from: from, distance: metres, bearing: bearing)
    }

    static func fix(_ coordinate: Coordinate, accuracy: Double = 5, at seconds: Double, speed: Double? = nil) -> Fix {
        try! Fix(coordinate: coordinate, horizontalAccuracy: accuracy, speed: speed, timestamp: date(seconds), source: .gps)
    }

    /// A fix `metres` east of the origin.
    static func fix(east metres: Double, accuracy: Double = 5, at seconds: Double) -> Fix {
        fix(point(metres), accuracy: accuracy, at: seconds)
    }

    static func region(_ id: String, at center: Coordinate = origin, radius: Double = 200, loitering: Double? = nil) -> Region {
        try! Region(id: id, center: center, radius: radius, loiteringDelay: loitering)
    }
}

extension Array where Element == TrackerEffect {
    var events: [RegionEvent] {
        compactMap { if case .emit(let event) = $0 { return event } else { return nil } }
    }
    var locationRequests: [LocationRequest] {
        compactMap { if case .configureLocation(let request) = $0 { return request } else { return nil } }
    }
    var monitored: [[MonitoredRegion]] {
        compactMap { if case .monitor(let regions) = $0 { return regions } else { return nil } }
    }
    var records: [RecordedFix] {
        compactMap { if case .record(let record) = $0 { return record } else { return nil } }
    }
    var hasOneShot: Bool { contains { if case .requestOneShot = $0 { return true } else { return false } } }
    var flushes: [FlushReason] {
        compactMap { if case .flushUploads(let reason) = $0 { return reason } else { return nil } }
    }
}
