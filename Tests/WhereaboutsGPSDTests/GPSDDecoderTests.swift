import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsGPSD

/// A TPV report as gpsd 3.22 writes it, with the members the decoder reads replaced by `members`.
private func tpv(_ members: String) -> String { #"{"class":"TPV","device":"/dev/pts/1","# + members + "}" }

private let good3D =
    #""mode":3,"time":"2026-11-22T09:53:05.802Z","ept":0.005,"lat":-27.210911667,"lon":153.052250000,"#
    + #""altHAE":45.2000,"altMSL":3.0000,"alt":3.0000,"epv":0.000,"track":133.9600,"magvar":10.9,"#
    + #""speed":9.224,"climb":0.000,"geoidSep":42.200,"eph":12.5,"epx":3.0,"epy":4.0"#

private func decodedFix(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Fix {
    let report = GPSDDecoder.report(from: line)
    var found: Fix?
    if case .fix(let fix) = report { found = fix }
    return try #require(found, "expected a fix from \(line), got \(report)", sourceLocation: sourceLocation)
}

private func rejection(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> GPSDRejection? {
    guard case .rejected(let rejection) = GPSDDecoder.report(from: line) else {
        Issue.record("expected \(line) to be rejected, got \(GPSDDecoder.report(from: line))", sourceLocation: sourceLocation)
        return nil
    }
    return rejection
}

@Suite("gpsd report decoder")
struct GPSDDecoderTests {
    @Test("a 3D TPV becomes a fix with every member mapped, accuracy from eph")
    func threeDimensionalFix() throws {
        let fix = try decodedFix(tpv(good3D))
        #expect(fix.coordinate.latitude == -27.210911667)
        #expect(fix.coordinate.longitude == 153.05225)
        #expect(fix.timestamp == Timestamp.parse("2026-11-22T09:53:05.802Z"))
        #expect(fix.horizontalAccuracy == 12.5)
        #expect(fix.altitude == 3)
        #expect(fix.speed == 9.224)
        #expect(fix.course == 133.96)
        #expect(fix.source == .gps)
    }

    @Test("without eph the accuracy is the half-diagonal of epx and epy, or one of them times √2")
    func accuracyFromErrorBox() throws {
        #expect(try decodedFix(tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"epx":3,"epy":4"#)).horizontalAccuracy == 5)
        let onlyX = try decodedFix(tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"epx":3"#))
        #expect(abs(onlyX.horizontalAccuracy - 3 * 2.squareRoot()) < 1e-12)
        let onlyY = try decodedFix(tpv(#""mode":2,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"epy":2"#))
        #expect(abs(onlyY.horizontalAccuracy - 2 * 2.squareRoot()) < 1e-12)
    }

    @Test("without any error estimate the accuracy falls back by mode: 30 m in 3D, 100 m in 2D")
    func fallbackAccuracy() throws {
        #expect(try decodedFix(tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2"#)).horizontalAccuracy == 30)
        #expect(try decodedFix(tpv(#""mode":2,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2"#)).horizontalAccuracy == 100)
        #expect(GPSDDecoder.fallbackAccuracy(mode: 3) == 30)
        #expect(GPSDDecoder.fallbackAccuracy(mode: 2) == 100)
    }

    @Test("a 2D fix has no altitude unless gpsd sends one; altHAE is converted with geoidSep, never used raw")
    func altitudes() throws {
        let base = #""mode":2,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"#
        #expect(try decodedFix(tpv(base + #""eph":5"#)).altitude == nil)
        #expect(try decodedFix(tpv(base + #""alt":12"#)).altitude == 12)
        #expect(try decodedFix(tpv(base + #""altMSL":7,"alt":12"#)).altitude == 7)
        #expect(try decodedFix(tpv(base + #""altHAE":50,"geoidSep":42"#)).altitude == 8)
        #expect(try decodedFix(tpv(base + #""altHAE":50"#)).altitude == nil)
    }

    @Test("track 360 is read as 0; missing speed and track stay unknown")
    func courseAndSpeed() throws {
        let base = #""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"#
        #expect(try decodedFix(tpv(base + #""track":360,"speed":0"#)).course == 0)
        let bare = try decodedFix(tpv(base + #""eph":3"#))
        #expect(bare.course == nil && bare.speed == nil)
    }

    @Test("modes 0 and 1 give no fix and are counted by mode", arguments: [0, 1])
    func noFix(mode: Int) {
        var decoder = GPSDDecoder()
        #expect(decoder.decode(tpv(#""mode":\#(mode),"lat":1,"lon":2,"time":"2024-05-06T07:30:00Z""#)) == .noFix(mode: mode))
        #expect(decoder.decode(#"{"class":"TPV","mode":\#(mode)}"#) == .noFix(mode: mode))
        #expect(decoder.statistics.noFixByMode == [mode: 2])
        #expect(decoder.statistics.fixes == 0 && decoder.statistics.rejected == 0 && decoder.statistics.lines == 2)
    }

    @Test("SKY, VERSION, DEVICES, WATCH and gpsd's other classes are skipped and counted by class")
    func otherClasses() {
        var decoder = GPSDDecoder()
        let lines = [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/1","bps":4800}]}"#,
            #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0}"#,
            #"{"class":"SKY","nSat":4,"uSat":0,"satellites":[{"PRN":24,"el":58.0,"az":220.0,"ss":0.0,"used":false}]}"#,
            #"{"class":"SKY","vdop":0.00,"hdop":0.00,"pdop":0.00,"nSat":0,"uSat":0}"#,
            #"{"class":"GST","time":"2020-07-11T22:37:45.000Z","rms":1.5}"#,
        ]
        for line in lines { _ = decoder.decode(line) }
        #expect(decoder.statistics.skippedByClass == ["VERSION": 1, "DEVICES": 1, "WATCH": 1, "SKY": 2, "GST": 1])
        #expect(decoder.statistics.rejected == 0)
        #expect(GPSDDecoder.report(from: lines[3]) == .skipped(reportClass: "SKY"))
    }

    @Test(
        "bad input is rejected with its reason, never a crash",
        arguments: [
            (#"{"class":"TPV","mode":3,"lat":52.1,"lon""#, GPSDRejectionReason.malformedJSON),
            ("$GPRMC,095255.810,V,2712.6404,S,15303.1201,E,0.00,0.00,080407,,,A*6E", .malformedJSON),
            ("[1, 2, 3]", .malformedJSON),
            ("   ", .malformedJSON),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":NaN,"lon":2"#), .malformedJSON),
            (#"{"mode":3,"lat":1,"lon":2}"#, .missingClass),
            (#"{"class":"PIZZA","mode":3}"#, .unknownClass),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":"north","lon":2"#), .wrongType),
            (tpv(#""mode":"3D","lat":1,"lon":2"#), .wrongType),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1e400,"lon":2"#), .malformedJSON),
            (tpv(#""lat":1,"lon":2,"time":"2024-05-06T07:30:00Z""#), .invalidMode),
            (tpv(#""mode":7,"lat":1,"lon":2,"time":"2024-05-06T07:30:00Z""#), .invalidMode),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","eph":5"#), .missingPosition),
            (tpv(#""mode":2,"time":"2024-05-06T07:30:00Z","lat":1"#), .missingPosition),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":123,"lon":2"#), .invalidPosition),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":-180.5"#), .invalidPosition),
            (tpv(#""mode":3,"lat":52.85,"lon":5.31,"eph":11.4"#), .missingTime),
            (tpv(#""mode":3,"time":"1970-01-01T00:00:00.000Z","lat":1,"lon":2"#), .invalidTime),
            (tpv(#""mode":3,"time":"1999-08-27T04:09:30.000Z","lat":1,"lon":2"#), .invalidTime),
            (tpv(#""mode":3,"time":"2150-01-01T00:00:00Z","lat":1,"lon":2"#), .invalidTime),
            (tpv(#""mode":3,"time":"yesterday","lat":1,"lon":2"#), .invalidTime),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"eph":-1"#), .invalidAccuracy),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"epx":-0.5,"epy":2"#), .invalidAccuracy),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"eph":1e9"#), .invalidAccuracy),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"altMSL":1e7"#), .invalidAltitude),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"speed":1e9"#), .invalidSpeed),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"speed":-2"#), .invalidSpeed),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"track":400"#), .invalidCourse),
            (tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"track":-1"#), .invalidCourse),
        ])
    func badInput(line: String, reason: GPSDRejectionReason) {
        var decoder = GPSDDecoder()
        guard case .rejected(let rejection) = decoder.decode(line) else {
            Issue.record("\(line) was not rejected")
            return
        }
        #expect(rejection.reason == reason, "\(rejection)")
        #expect(decoder.statistics.rejectedByReason == [reason: 1])
        #expect(decoder.statistics.fixes == 0 && decoder.statistics.lines == 1)
        #expect(rejection.description.hasPrefix("gpsd line `"))
        #expect(rejection.description.contains("the line is skipped"))
        #expect(!rejection.problem.isEmpty)
    }

    @Test("rejections say what was wrong in words that name the member and the value")
    func messages() throws {
        let latitude = try #require(rejection(tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":123,"lon":2"#)))
        #expect(latitude.problem.contains("latitude 123.0"))
        let speed = try #require(rejection(tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"speed":1e9"#)))
        #expect(speed.problem.contains("speed 1000000000.0 m/s"))
        let eph = try #require(rejection(tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":1,"lon":2,"eph":-1"#)))
        #expect(eph.problem.contains("eph -1.0 m"))
        let time = try #require(rejection(tpv(#""mode":3,"time":"1970-01-01T00:00:00.000Z","lat":1,"lon":2"#)))
        #expect(time.problem.contains("1970-01-01T00:00:00.000Z"))
        let type = try #require(rejection(tpv(#""mode":3,"time":"2024-05-06T07:30:00Z","lat":"north","lon":2"#)))
        #expect(type.problem.contains("`lat`"))
        let unknown = try #require(rejection(#"{"class":"PIZZA"}"#))
        #expect(
            unknown.description == #"gpsd line `{"class":"PIZZA"}`: has class "PIZZA", which is not a gpsd report class; "#
                + "the line is skipped and counted as unknownClass, and reading goes on with the next line")
    }

    @Test("a long bad line is quoted only by its start")
    func excerpt() throws {
        let long =
            #"{"class":"TPV","mode":3,"lat":123,"lon":2,"time":"2024-05-06T07:30:00Z","# + String(repeating: #""x":1,"#, count: 100)
            + #""y":2}"#
        let rejected = try #require(rejection(long))
        #expect(rejected.excerpt.count == GPSDRejection.excerptLength + 1)
        #expect(rejected.excerpt.hasSuffix("…"))
    }

    @Test("counters add up over a mixed stream, and an over-long line is counted")
    func statistics() {
        var decoder = GPSDDecoder()
        let lines = [
            #"{"class":"VERSION","release":"3.22"}"#, tpv(#""mode":1"#), tpv(good3D), tpv(good3D), #"{"class":"SKY"}"#,
            "{garbage", tpv(#""mode":3,"lat":1,"lon":2"#),
        ]
        for line in lines { _ = decoder.decode(line) }
        let overlong = decoder.rejectOverlongLine(start: #"{"class":"SKY","satellites":["#, byteCount: 300_000)
        #expect(overlong.reason == .lineTooLong)
        #expect(overlong.problem.contains("300000 bytes"))
        let counts = decoder.statistics
        #expect(counts.lines == 8)
        #expect(counts.fixes == 2)
        #expect(counts.noFixByMode == [1: 1])
        #expect(counts.skippedByClass == ["VERSION": 1, "SKY": 1])
        #expect(counts.rejectedByReason == [.malformedJSON: 1, .missingTime: 1, .lineTooLong: 1])
        #expect(counts.rejected == 3)
        #expect(counts.description.contains("8 lines, 2 fixes"))
        #expect(counts.description.contains("missingTime 1"))
    }

    @Test("leading and trailing whitespace and a carriage return do not matter")
    func whitespace() throws {
        #expect(try decodedFix("  " + tpv(good3D) + "\r\n").horizontalAccuracy == 12.5)
    }
}
