import Foundation
import Testing
import WhereaboutsCore

@Suite("GPX reader and writer")
struct GPXParserTests {
    private func parse(_ text: String, chunk: Int? = nil) throws -> [GPXPoint] {
        var parser = GPXParser(sourceName: "test.gpx")
        let bytes = Array(text.utf8)
        var points: [GPXPoint] = []
        let size = chunk ?? max(1, bytes.count)
        var i = 0
        while i < bytes.count {
            points += try parser.feed(bytes[i..<min(bytes.count, i + size)])
            i += size
        }
        return points + (try parser.finish())
    }

    private func failure(_ text: String) -> FormatError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error as? FormatError
        }
    }

    static let sample = """
        \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
        <!-- a comment with <tags> inside -->
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
          <metadata><time>1970-01-01T00:00:00Z</time><name><![CDATA[Ride & <run>]]></name></metadata>
          <wpt lat="1" lon="1"><name>skip me</name></wpt>
          <trk><name>A &amp; B</name>
            <trkseg>
              <trkpt lat='48.1' lon="11.5"><ele>520.5</ele><time>2024-05-06T07:30:00Z</time></trkpt>
              <trkpt lat="48.2" lon="11.6"><time>2024-05-06T07:30:01.250Z</time>
                <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>4.5</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>
              </trkpt>
            </trkseg>
            <trkseg><trkpt lat="48.3" lon="11.7"/></trkseg>
          </trk>
          <rte><rtept lat="-33.9" lon="151.2"><time>2024-05-06T09:30:00+02:00</time></rtept></rte>
        </gpx>
        """

    @Test("tracks, segments, routes, extensions, CDATA, comments, entities and a BOM")
    func sample() throws {
        let points = try parse(Self.sample)
        #expect(points.count == 4)
        #expect(points[0].elevation == 520.5)
        #expect(points[0].time == Date(timeIntervalSince1970: 1_714_980_600))
        #expect(points[1].speed == 4.5)
        #expect(points[1].time == Date(timeIntervalSince1970: 1_714_980_601.25))
        #expect(points[2].time == nil)
        #expect(points[2].segment != points[1].segment)
        #expect(points[3].coordinate.latitude == -33.9)
        #expect(points[3].time == Date(timeIntervalSince1970: 1_714_980_600))
        #expect(points[0].line == 8)
    }

    @Test("feeding one byte at a time gives the same points")
    func byteByByte() throws {
        #expect(try parse(Self.sample, chunk: 1) == (try parse(Self.sample)))
        #expect(try parse(Self.sample, chunk: 7) == (try parse(Self.sample)))
    }

    @Test("GPX 1.0 speed and namespace prefixes on elements")
    func gpx10() throws {
        let points = try parse(
            """
            <gpx:gpx version="1.0" xmlns:gpx="http://www.topografix.com/GPX/1/0"><gpx:trk><gpx:trkseg>
            <gpx:trkpt lat="1" lon="2"><gpx:speed>3.25</gpx:speed></gpx:trkpt>
            </gpx:trkseg></gpx:trk></gpx:gpx>
            """)
        #expect(points.map(\.speed) == [3.25])
    }

    @Test("writer output reads back the same")
    func roundTrip() throws {
        let original = try parse(Self.sample)
        let text = GPXWriter.document(name: "R&D <test>", points: original)
        let again = try parse(text)
        #expect(again.map(\.coordinate) == original.map(\.coordinate))
        #expect(again.map(\.time) == original.map(\.time))
        #expect(again.map(\.speed) == original.map(\.speed))
        #expect(again.map(\.elevation) == original.map(\.elevation))
    }

    @Test(
        "malformed inputs name the line and the problem",
        arguments: [
            ("<gpx><trk><trkseg>\n<trkpt lat=\"91\" lon=\"0\"/></trkseg></trk></gpx>", "line 2", "latitude"),
            ("<gpx><trk><trkseg>\n\n<trkpt lon=\"0\"/></trkseg></trk></gpx>", "line 3", "no lat"),
            ("<gpx><trk><trkseg><trkpt lat=\"abc\" lon=\"0\"/></trkseg></trk></gpx>", "line 1", "not a number"),
            ("<gpx><trk><trkseg>\n<trkpt lat=\"1\" lon=\"0\"><time>yesterday</time></trkpt></trkseg></trk></gpx>", "line 2", "RFC 3339"),
            ("<gpx><trk><trkseg>\n<trkpt lat=\"1\" lon=\"0\"><ele>high</ele></trkpt></trkseg></trk></gpx>", "line 2", "not a number"),
            ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"0\">", "line", "still open"),
            ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"0\"", "line", "ends inside markup"),
            ("<gpx><trk></trkseg></trk></gpx>", "line 1", "closes <trk>"),
            ("{\"type\": \"FeatureCollection\"}", "line", "no <gpx>"),
            ("<kml></kml>", "line 1", "not <gpx>"),
            ("<gpx><trk><trkseg><trkpt lat=1 lon=\"0\"/></trkseg></trk></gpx>", "line 1", "not quoted"),
        ])
    func malformed(text: String, location: String, problem: String) {
        guard let error = failure(text) else {
            Issue.record("\(text) parsed")
            return
        }
        #expect(error.description.contains("test.gpx"))
        #expect(error.location.contains(location))
        #expect(error.problem.contains(problem), "\(error)")
        #expect(!error.fix.isEmpty)
    }

    @Test("a large file that is not XML is refused once 4 MiB hold no token, not read whole to its end")
    func notXMLRefusedEarly() {
        var parser = GPXParser(sourceName: "trace.csv")
        let chunk = Array(String(repeating: "52.5,13.4,2024-05-06T07:30:01Z\n", count: 2048).utf8)  // 64 KiB
        var fed = 0
        do {
            while fed < 20 << 20 {
                _ = try parser.feed(chunk)
                fed += chunk.count
            }
            Issue.record("20 MiB of CSV were taken as the start of a GPX file")
        } catch {
            #expect(fed <= 5 << 20, "refused after \(fed) bytes")
            #expect(error.problem.contains("not XML"), "\(error)")
        }
    }

    @Test("timestamps parse and format")
    func timestamps() {
        #expect(Timestamp.parse("2024-02-29T23:59:59Z") == Date(timeIntervalSince1970: 1_709_251_199))
        #expect(Timestamp.parse("2024-02-29T23:59:59") == Date(timeIntervalSince1970: 1_709_251_199))
        #expect(Timestamp.parse("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
        #expect(Timestamp.parse("2024-13-01T00:00:00Z") == nil)
        #expect(Timestamp.parse("2024-01-01T00:00:00+0100") == nil)
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_714_980_601.25)) == "2024-05-06T07:30:01.250Z")
    }
}
