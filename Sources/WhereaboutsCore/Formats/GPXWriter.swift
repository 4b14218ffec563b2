import Foundation

/// Writes GPX 1.1 tracks, deterministically: the same points give the same bytes.
public enum GPXWriter {
    /// A GPX 1.1 document with one track and one segment holding `points` (coordinate, optional time
    /// and elevation, and speed as a `speed` extension).
    public static func document(name: String, points: [GPXPoint]) -> String {
        header(name: name) + points.map(point).joined() + footer
    }

    /// The document up to the opening `<trkseg>`, for writing a track piece by piece.
    public static func header(name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="whereabouts" xmlns="http://www.topografix.com/GPX/1/1">
          <trk>
            <name>\(escape(name))</name>
            <trkseg>

        """
    }

    /// One `<trkpt>` line.
    public static func point(_ point: GPXPoint) -> String {
        var out = "      <trkpt lat=\"\(point.coordinate.latitude)\" lon=\"\(point.coordinate.longitude)\">"
        if let elevation = point.elevation { out += "<ele>\(elevation)</ele>" }
        if let time = point.time { out += "<time>\(Timestamp.format(time))</time>" }
        if let speed = point.speed { out += "<extensions><speed>\(speed)</speed></extensions>" }
        return out + "</trkpt>\n"
    }

    /// Closes what ``header(name:)`` opened.
    public static let footer = "    </trkseg>\n  </trk>\n</gpx>\n"

    /// Escapes text for XML character data and attribute values.
    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
