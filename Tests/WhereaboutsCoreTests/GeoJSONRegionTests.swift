import Foundation
import Testing
import WhereaboutsCore

@Suite("GeoJSON regions and JSON Lines")
struct GeoJSONRegionTests {
    private func feature(_ id: String, _ lon: Double = 11.5, _ lat: Double = 48.1, radius: String = "100", geometry: String = "Point")
        -> String
    {
        #"{"type":"Feature","geometry":{"type":"\#(geometry)","coordinates":[\#(lon),\#(lat)]},"properties":{"id":"\#(id)","radius":\#(radius)}}"#
    }

    private func read(_ features: [String]) throws -> [Region] {
        let text = #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
        return try GeoJSONRegionReader.regions(from: Data(text.utf8), sourceName: "r.geojson")
    }

    @Test("point features become regions, coordinates longitude first")
    func good() throws {
        let regions = try read([
            feature("home"),
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":7,"radius":50,"loiteringDelay":120,"notifyOnExit":false}}"#,
        ])
        #expect(regions.map(\.id) == ["home", "7"])
        #expect(regions[0].center.latitude == 48.1 && regions[0].center.longitude == 11.5)
        #expect(regions[1].loiteringDelay == 120 && !regions[1].notifyOnExit)
    }

    @Test(
        "bad features name the feature and the problem",
        arguments: [
            (
                [#"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"id":"a","radius":-5}}"#], "feature 0",
                "radius"
            ),
            (["FEATURE(a)", "FEATURE(b, lat: 95)"], "feature 1", "latitude"),
            (["FEATURE(a)", "FEATURE(a)"], "feature 1", "feature 0"),
            (["FEATURE(p, geometry: Polygon)"], "feature 0", "ring"),
            (["FEATURE(l, geometry: LineString)"], "feature 0", "LineString"),
            ([#"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"radius":5}}"#], "feature 0", "id"),
            (
                [#"{"type":"Feature","geometry":{"type":"Point","coordinates":[0]},"properties":{"id":"a","radius":5}}"#], "feature 0",
                "coordinates"
            ),
            (
                [
                    #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"id":"a","radius":5,"notifyOnExit":"false"}}"#
                ],
                "feature 0", #"notifyOnExit "false", not true or false"#
            ),
            (
                [
                    #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"id":"a","radius":5,"loiteringDelay":"120"}}"#
                ],
                "feature 0", #"loiteringDelay "120", not a number"#
            ),
        ])
    func bad(features: [String], location: String, problem: String) {
        let expanded = features.map { text -> String in
            switch text {
            case "FEATURE(a)": feature("a")
            case "FEATURE(b, lat: 95)": feature("b", 0, 95)
            case "FEATURE(p, geometry: Polygon)": feature("p", geometry: "Polygon")
            case "FEATURE(l, geometry: LineString)": feature("l", geometry: "LineString")
            default: text
            }
        }
        #expect { try read(expanded) } throws: { error in
            guard let error = error as? FormatError else { return false }
            return error.location.contains(location) && "\(error)".contains(problem) && error.source == "r.geojson"
        }
    }

    @Test("regions the server would refuse are refused here, by the server's limits: a radius of 1e308, an id of 100,000 characters")
    func serverLimits() throws {
        #expect { try read([feature("far", radius: "1e308")]) } throws: { error in
            "\(error)".contains("properties.radius 1e+308 is not within 1 to 1000000 m")
        }
        let long = String(repeating: "x", count: 100_000)
        #expect { try read([feature(long)]) } throws: { error in
            let text = "\(error)"
            return text.contains("properties.id") && text.contains("200") && text.count < 1000
        }
        #expect(try read([feature(String(repeating: "x", count: 200), radius: "1000000")]).count == 1)
    }

    @Test("malformed JSON and wrong documents are clear errors")
    func malformed() {
        for text in ["{not json", #"{"type":"Feature"}"#, "[]"] {
            #expect(throws: FormatError.self) { try GeoJSONRegionReader.regions(from: Data(text.utf8), sourceName: "x") }
        }
        // A string among the features (a feature encoded twice) is refused, not skipped.
        #expect { try read([#""{\"type\":\"Feature\"}""#, feature("a")]) } throws: { error in
            "\(error)".contains("an element of \"features\" is not an object")
        }
    }

    @Test("JSON lines keep key order, escape strings and print numbers reproducibly")
    func jsonLines() {
        let line = JSONLine([
            ("t", .number(1_700_000_000)), ("s", .string("a\"b\\c\n")), ("x", .number(0.1)), ("n", .null), ("b", .bool(false)),
            ("i", .integer(-3)),
        ])
        #expect(line.text == #"{"t":1700000000,"s":"a\"b\\c\n","x":0.1,"n":null,"b":false,"i":-3}"#)
        #expect(JSONLine.document([line, line]).split(separator: "\n").count == 2)
        #expect(JSONLine([("x", .number(.nan))]).text == #"{"x":null}"#)
    }
}
