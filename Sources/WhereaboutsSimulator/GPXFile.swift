import Foundation
import WhereaboutsCore

/// Reads GPX traces from disk in chunks, for use as ground truth.
public enum GPXFile {
    /// Timestamps before this are a logger without a clock fix (often 1970).
    public static let earliestPlausible = Date(timeIntervalSince1970: 946_684_800)

    /// Every point of the file, in file order, streamed through ``GPXParser``.
    /// - Throws: ``FormatError`` naming the file, line, problem and fix.
    public static func readPoints(at url: URL) throws -> [GPXPoint] {
        var parser = GPXParser(sourceName: url.lastPathComponent)
        var points: [GPXPoint] = []
        try TextFileChunks.read(url, expecting: "a GPX file") { points += try parser.feed($0) }
        points += try parser.finish()
        return points
    }

    /// The file as ground truth: every point must have a time no earlier than 2000 and no later than a
    /// day after `now`, and time must not go backwards. Points repeating the previous timestamp are
    /// dropped (loggers write them when they stand still); all others are kept.
    public static func readTrace(at url: URL, now: Date) throws -> [TracePoint] {
        let name = url.lastPathComponent
        let points = try readPoints(at: url)
        guard !points.isEmpty else {
            throw FormatError(
                source: name, location: "", problem: "has no track or route points", fix: "give a GPX file with a <trk> or <rte>")
        }
        var trace: [TracePoint] = []
        trace.reserveCapacity(points.count)
        for point in points {
            let location = "line \(point.line)"
            guard let time = point.time else {
                throw FormatError(
                    source: name, location: location, problem: "the point has no <time>",
                    fix: "a ground-truth trace needs a time on every point")
            }
            if time < earliestPlausible {
                throw FormatError(
                    source: name, location: location, problem: "time \(Timestamp.format(time)) is before 2000: the logger had no clock fix",
                    fix: "cut the points before the clock was set, or split the file at this line")
            }
            if time > now.addingTimeInterval(86_400) {
                throw FormatError(
                    source: name, location: location, problem: "time \(Timestamp.format(time)) is in the future",
                    fix: "check the logger's clock and time zone, or remove the point")
            }
            let t = time.timeIntervalSince1970
            if let last = trace.last {
                if t == last.time { continue }
                if t < last.time - 1 {
                    throw FormatError(
                        source: name, location: location,
                        problem: "time \(Timestamp.format(time)) goes back \(Int(last.time - t)) s from the point before",
                        fix: "split the file at line \(point.line) or remove the point")
                }
                if t < last.time { continue }
            }
            trace.append(TracePoint(coordinate: point.coordinate, time: t))
        }
        return trace
    }
}
