import Foundation

/// One position read from a GPX file.
public struct GPXPoint: Sendable, Equatable {
    /// The position.
    public let coordinate: Coordinate
    /// When it was recorded, if the file says.
    public let time: Date?
    /// Elevation in metres, if given.
    public let elevation: Double?
    /// Speed in metres per second, if given (GPX 1.0 `<speed>` or a `speed` extension element).
    public let speed: Double?
    /// Which track segment or route the point belongs to, counting from 0 in file order.
    public let segment: Int
    /// The 1-based line of the point's opening tag.
    public let line: Int
}

extension GPXPoint {
    /// Creates a point to write (segment and line are 0).
    public init(coordinate: Coordinate, time: Date?, elevation: Double?, speed: Double?) {
        self.init(coordinate: coordinate, time: time, elevation: elevation, speed: speed, segment: 0, line: 0)
    }
}
