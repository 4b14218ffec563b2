import Foundation
import Testing
import Whereabouts
import WhereaboutsCore

@testable import WhereaboutsGPSD

private let origin = Coordinate(normalizingLatitude: 52.37, longitude: 4.89)
private let start = Date(timeIntervalSince1970: 1_700_000_000)

/// A fix `metres` north of the origin, `index` seconds after the start.
private func fix(north metres: Double, accuracy: Double = 5, index: Int = 0) throws -> Fix {
    try Fix(
        coordinate: Geodesy.destination(from: origin, distance: metres, bearing: 0), horizontalAccuracy: accuracy,
        timestamp: start.addingTimeInterval(Double(index)), source: .gps)
}

private func standard(_ filter: Double?) -> LocationRequest {
    LocationRequest(standard: StandardUpdates(accuracy: .best, distanceFilter: filter), significantChange: false)
}

private func delivered(_ router: inout GPSDFixRouter, _ fixes: [Fix]) -> [Bool] {
    fixes.map { router.route($0).delivered }
}

@Suite("gpsd fix routing: configuration, distance filter, one-shot, regions")
struct GPSDFixRouterTests {
    @Test("off delivers nothing and needs no gpsd")
    func off() throws {
        var router = GPSDFixRouter()
        #expect(!router.wantsFixes)
        let routed = router.route(try fix(north: 0))
        #expect(routed.events.isEmpty && !routed.delivered)
    }

    @Test("standard updates without a filter deliver every fix")
    func everyFix() throws {
        var router = GPSDFixRouter()
        router.configure(standard(nil))
        #expect(router.wantsFixes)
        let fixes = try (0..<5).map { try fix(north: 0, index: $0) }
        #expect(delivered(&router, fixes) == [true, true, true, true, true])
        #expect(router.route(fixes[0]).events == [.fix(fixes[0])])
    }

    @Test("the distance filter skips fixes closer than it to the last delivered one")
    func distanceFilter() throws {
        var router = GPSDFixRouter()
        router.configure(standard(100))
        let fixes = try [0, 50, 99, 101, 150, 250].enumerated().map { try fix(north: Double($0.element), index: $0.offset) }
        #expect(delivered(&router, fixes) == [true, false, false, true, false, true])
    }

    @Test("a changed configuration delivers its first fix; the same one again changes nothing")
    func reconfigure() throws {
        var router = GPSDFixRouter()
        router.configure(standard(100))
        #expect(router.route(try fix(north: 0)).delivered)
        router.configure(standard(100))
        #expect(!router.route(try fix(north: 10)).delivered)
        router.configure(standard(200))
        #expect(router.route(try fix(north: 20)).delivered)
    }

    @Test("significant changes deliver a fix every 500 m, at most every 5 minutes, as on the phone")
    func significantChange() throws {
        var router = GPSDFixRouter()
        router.configure(LocationRequest(standard: nil, significantChange: true))
        #expect(router.wantsFixes)
        let steps: [(metres: Double, second: Int)] = [(0, 0), (300, 120), (510, 240), (520, 360), (900, 480), (1100, 720)]
        let fixes = try steps.map { try fix(north: $0.metres, index: $0.second) }
        #expect(delivered(&router, fixes) == [true, false, false, true, false, true])
    }

    @Test("a one-shot delivers the next fix while updates are off, then gpsd is no longer needed")
    func oneShot() throws {
        var router = GPSDFixRouter()
        router.requestOneShot()
        #expect(router.wantsFixes)
        let first = try fix(north: 0)
        #expect(router.route(first).events == [.fix(first)])
        #expect(!router.wantsFixes)
        #expect(!router.route(try fix(north: 5, index: 1)).delivered)
    }

    @Test("a one-shot delivers even a fix the distance filter would hold back")
    func oneShotBeatsFilter() throws {
        var router = GPSDFixRouter()
        router.configure(standard(1000))
        #expect(router.route(try fix(north: 0)).delivered)
        router.requestOneShot()
        #expect(router.route(try fix(north: 1, index: 1)).delivered)
        #expect(!router.route(try fix(north: 2, index: 2)).delivered)
    }

    @Test("a monitored region reports its state on the first telling fix, then each crossing")
    func regionCrossings() throws {
        var router = GPSDFixRouter()
        let region = MonitoredRegion(id: "office", center: Geodesy.destination(from: origin, distance: 1000, bearing: 0), radius: 200)
        router.monitor([region], at: start)
        #expect(router.wantsFixes, "regions need fixes even with updates off")
        #expect(router.route(try fix(north: 0)).events == [.regionCrossing(id: "office", state: .outside)])
        #expect(router.route(try fix(north: 100, index: 1)).events.isEmpty)
        #expect(router.route(try fix(north: 800, index: 2)).events.isEmpty, "not yet max(r/10, 50 m) inside the boundary")
        #expect(router.route(try fix(north: 1000, index: 3)).events == [.regionCrossing(id: "office", state: .inside)])
        #expect(router.route(try fix(north: 1050, index: 4)).events.isEmpty)
        #expect(router.route(try fix(north: 1500, index: 5)).events == [.regionCrossing(id: "office", state: .outside)])
    }

    @Test("a crossing is reported once a fix lies max(r/10, 50 m) beyond the boundary, as the phone's OS does")
    func osMargin() throws {
        var router = GPSDFixRouter()
        router.monitor([MonitoredRegion(id: "park", center: origin, radius: 200)], at: start)
        #expect(router.route(try fix(north: 400)).events == [.regionCrossing(id: "park", state: .outside)])
        #expect(router.route(try fix(north: 170, index: 1)).events.isEmpty, "30 m inside is within the 50 m margin")
        #expect(router.route(try fix(north: 140, index: 2)).events == [.regionCrossing(id: "park", state: .inside)])
        #expect(router.route(try fix(north: 240, index: 3)).events.isEmpty)
        #expect(router.route(try fix(north: 260, index: 4)).events == [.regionCrossing(id: "park", state: .outside)])
    }

    @Test("re-monitoring keeps the state of unchanged regions and starts changed ones afresh")
    func remonitor() throws {
        var router = GPSDFixRouter()
        let near = MonitoredRegion(id: "near", center: origin, radius: 300)
        let far = MonitoredRegion(id: "far", center: Geodesy.destination(from: origin, distance: 5000, bearing: 90), radius: 300)
        router.monitor([near, far], at: start)
        #expect(
            router.route(try fix(north: 0)).events == [
                .regionCrossing(id: "near", state: .inside), .regionCrossing(id: "far", state: .outside),
            ])
        let grown = MonitoredRegion(id: "far", center: far.center, radius: 6000)
        router.monitor([near, grown], at: start)
        #expect(router.route(try fix(north: 1, index: 1)).events == [.regionCrossing(id: "far", state: .inside)])
        router.monitor([], at: start)
        #expect(!router.wantsFixes)
    }

    @Test("fixes are delivered before the crossings they cause")
    func order() throws {
        var router = GPSDFixRouter()
        router.configure(standard(nil))
        router.monitor([MonitoredRegion(id: "home", center: origin, radius: 100)], at: start)
        let here = try fix(north: 0)
        #expect(router.route(here).events == [.fix(here), .regionCrossing(id: "home", state: .inside)])
    }
}

@Suite("gpsd line splitting and back-off")
struct GPSDPlumbingTests {
    @Test("lines are reassembled across reads; CR, LF and blank lines are handled")
    func splitting() {
        var splitter = GPSDLineSplitter()
        #expect(splitter.push(Array(#"{"class":"VER"#.utf8)).isEmpty)
        #expect(
            splitter.push(Array("SION\"}\r\n\n  \r\n{\"a\":1}\n{\"b\"".utf8)) == [
                .line(#"{"class":"VERSION"}"#), .line(#"{"a":1}"#),
            ])
        #expect(splitter.push(Array(":2}\n".utf8)) == [.line(#"{"b":2}"#)])
    }

    @Test("an over-long line is reported by its start and length, and the next line is read normally")
    func overlong() {
        var splitter = GPSDLineSplitter()
        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: GPSDLineSplitter.maximumLineLength + 10)
        #expect(splitter.push(huge[..<100_000]).isEmpty)
        #expect(splitter.push(huge[100_000...]).isEmpty)
        let pieces = splitter.push(Array("yy\n{\"ok\":true}\n".utf8))
        #expect(pieces.count == 2)
        guard case .overlong(let start, let count) = pieces.first else {
            Issue.record("expected an over-long piece, got \(pieces)")
            return
        }
        #expect(count == huge.count + 2)
        #expect(start.hasPrefix("xxxx") && start.count == 200)
        #expect(pieces.last == .line(#"{"ok":true}"#))
    }

    @Test("invalid UTF-8 does not stop the splitter")
    func invalidUTF8() {
        var splitter = GPSDLineSplitter()
        #expect(splitter.push([0xFF, 0xFE, 0x41, 10]) == [.line("\u{FFFD}\u{FFFD}A")])
    }

    @Test("back-off doubles from 0.5 s and stays at 30 s")
    func backoff() {
        let delays = (1...9).map { GPSDBackoff.standard.delay(afterFailures: $0) }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 30, 30, 30])
        #expect(GPSDBackoff.standard.delay(afterFailures: 0) == 0.5)
        #expect(GPSDBackoff.standard.delay(afterFailures: Int.max) == 30)
    }

    @Test("unusable back-off settings are raised to their minimum")
    func backoffClamping() {
        let odd = GPSDBackoff(initial: -1, maximum: .nan, multiplier: 0.5)
        #expect(odd.initial == 0.001 && odd.maximum == 0.001 && odd.multiplier == 1)
        #expect(odd.delay(afterFailures: 1000) == 0.001)
        let inverted = GPSDBackoff(initial: 2, maximum: 1)
        #expect(inverted.maximum == 2)
    }

    @Test("the endpoint names itself as failures do")
    func endpointDescription() {
        #expect(GPSDEndpoint().description == "gpsd at 127.0.0.1:2947")
        #expect(GPSDEndpoint(host: "::1", port: 3000).description == "gpsd at [::1]:3000")
    }
}
