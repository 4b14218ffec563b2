import Foundation
import WhereaboutsCore

/// `count` records a second apart along a line, starting at `start`.
public func sampleRecords(_ count: Int, start: Date = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded()))
    -> [LocationRecord]
{
    (0..<count).map { i in
        let fix = try! Fix(
            coordinate: Coordinate(latitude: 52.5 + Double(i) * 1e-4, longitude: 13.4), horizontalAccuracy: 5,
            speed: 1.5, course: 90, timestamp: start.addingTimeInterval(Double(i)), source: .gps)
        return LocationRecord(fix: fix, trigger: .policy)
    }
}
