import Foundation
import WhereaboutsCore

/// One recorded position of a ground-truth trace.
public struct TracePoint: Sendable, Equatable {
    /// Where the device was.
    public let coordinate: Coordinate
    /// When, in seconds since 1970.
    public let time: Double

    /// Creates a trace point.
    public init(coordinate: Coordinate, time: Double) {
        self.coordinate = coordinate
        self.time = time
    }
}
