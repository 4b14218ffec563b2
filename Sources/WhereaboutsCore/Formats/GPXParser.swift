import Foundation

/// A streaming GPX 1.0 / 1.1 reader: feed it bytes in chunks of any size and it returns the track
/// points (`trk/trkseg/trkpt`) and route points (`rte/rtept`) as they complete. Waypoints (`wpt`) and
/// metadata are not positions of a journey and are skipped. Memory stays bounded by the largest
/// single element, so a 100 MB file is never held whole.
public struct GPXParser {
    /// The name used in error messages (usually the file name).
    public let sourceName: String
    private var tokenizer = XMLTokenizer()
    private var stack: [String] = []
    private var segment = -1
    private var point: (lat: Double, lon: Double, line: Int)?
    private var fields: [String: String] = [:]
    private var text = ""
    private var sawRoot = false

    /// Creates a parser for the input called `sourceName`.
    public init(sourceName: String) { self.sourceName = sourceName }

    /// Parses more bytes and returns the points they completed.
    /// - Throws: ``FormatError`` naming the line, the problem and the fix.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(FormatError) -> [GPXPoint] {
        let tokens: [(XMLTokenizer.Token, Int)]
        do {
            tokens = try tokenizer.feed(bytes)
        } catch {
            guard case .malformed(let line, let problem) = error else { throw failure(line: 0, "", "") }
            throw failure(line: line, problem, "repair the XML or export the track again")
        }
        var points: [GPXPoint] = []
        for (token, line) in tokens {
            if let p = try handle(token, line: line) { points.append(p) }
        }
        return points
    }

    /// Ends the input; throws when the document is incomplete.
    public mutating func finish() throws(FormatError) -> [GPXPoint] {
        guard sawRoot else {
            throw failure(line: tokenizer.line, "there is no <gpx> element", "give a GPX 1.0 or 1.1 file")
        }
        if let rest = tokenizer.leftover() {
            throw failure(line: tokenizer.line, "the file ends inside markup (\"\(rest)\")", "the file is truncated: export it again")
        }
        if let open = stack.last {
            throw failure(line: tokenizer.line, "the file ends with <\(open)> still open", "the file is truncated: export it again")
        }
        return []
    }

    private func failure(line: Int, _ problem: String, _ fix: String) -> FormatError {
        FormatError(source: sourceName, location: line > 0 ? "line \(line)" : "", problem: problem, fix: fix)
    }

    private mutating func handle(_ token: XMLTokenizer.Token, line: Int) throws(FormatError) -> GPXPoint? {
        switch token {
        case .start(let name, let attributes, let selfClosing):
            if !sawRoot {
                guard name == "gpx" else {
                    throw failure(line: line, "the root element is <\(name)>, not <gpx>", "give a GPX 1.0 or 1.1 file")
                }
                sawRoot = true
            }
            if name == "trkseg" || name == "rte" || (name == "trk" && !stack.contains("trk")) { segment += 1 }
            if name == "trkpt" || name == "rtept" {
                if name == "trkpt" && !stack.contains("trkseg") && !stack.contains("trk") { segment += 1 }
                point = (try degrees(attributes["lat"], "lat", name, line), try degrees(attributes["lon"], "lon", name, line), line)
                fields = [:]
                if selfClosing { return try completePoint() }
            }
            text = ""
            if !selfClosing { stack.append(name) }
        case .end(let name):
            guard let open = stack.last else {
                throw failure(line: line, "</\(name)> closes nothing", "remove the stray closing tag")
            }
            guard open == name else {
                throw failure(line: line, "</\(name)> closes <\(open)>", "close <\(open)> before </\(name)>")
            }
            stack.removeLast()
            if point != nil, ["time", "ele", "speed"].contains(name) {
                fields[name] = text.trimmingWhitespace()
            }
            if name == "trkpt" || name == "rtept" { return try completePoint() }
        case .text(let content):
            text += content
        }
        return nil
    }

    private func degrees(_ value: String?, _ attribute: String, _ element: String, _ line: Int) throws(FormatError) -> Double {
        guard let value else {
            throw failure(line: line, "<\(element)> has no \(attribute) attribute", "give every point lat and lon in decimal degrees")
        }
        guard let number = Double(value.trimmingWhitespace()) else {
            throw failure(line: line, "<\(element)> \(attribute)=\"\(value)\" is not a number", "give \(attribute) in decimal degrees")
        }
        return number
    }

    private mutating func completePoint() throws(FormatError) -> GPXPoint {
        guard let (lat, lon, line) = point else { throw failure(line: 0, "internal: no open point", "report this") }
        point = nil
        let coordinate: Coordinate
        do {
            coordinate = try Coordinate(latitude: lat, longitude: lon)
        } catch {
            throw failure(line: line, "\(error.field) \(error.value) \(error.problem)", error.fix)
        }
        var time: Date?
        if let text = fields["time"] {
            guard let parsed = Timestamp.parse(text) else {
                throw failure(line: line, "<time>\(text)</time> is not an RFC 3339 timestamp", "write times like 2024-05-06T07:30:00Z")
            }
            time = parsed
        }
        return GPXPoint(
            coordinate: coordinate, time: time, elevation: try number("ele", line), speed: try number("speed", line),
            segment: max(segment, 0), line: line)
    }

    private func number(_ field: String, _ line: Int) throws(FormatError) -> Double? {
        guard let text = fields[field], !text.isEmpty else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw failure(line: line, "<\(field)>\(text)</\(field)> is not a number", "give \(field) as a decimal number")
        }
        return value
    }
}
